/**
 * Writes src/k8s/api-fields/fields.generated.ts: the field tree of every object kind the library reads or emits, per
 * Kubernetes version. `npm run docs:api-fields` (or `npx tsx scripts/gen-api-fields.ts`); `--check` exits 1 when the
 * committed file differs (a test does the same in memory).
 *
 * Sources, all installed from the npm registry:
 * - Kubernetes 1.28: the generated L1 types of cdk8s-plus-28 (`lib/imports/k8s.d.ts`, generated from the 1.28 OpenAPI
 *   document). Each interface and property carries its OpenAPI name in `@schema <definition>#<json name>`, which
 *   is read instead of the TypeScript names (cdk8s camel-cases names such as `x-kubernetes-list-type` and `$ref`).
 * - Kubernetes 1.33: the generated types of kubernetes-models (`*.d.ts`, generated from the 1.33 OpenAPI document by
 *   @kubernetes-models/openapi-generate; the same document yields its `_schemas` validators). Fields are written with
 *   their JSON names.
 * - The first version of a field newer than 1.28 comes from {@link FIRST_VERSIONS} (each entry cites the Kubernetes
 *   changelog); a newer field without an entry is recorded as "not in 1.28, exists in 1.33".
 * - Field types (`string`, `boolean`, `int32`, `int64`, `number`, `byte`, `quantity`, `time`, int-or-string): the
 *   JSON type of the declarations of both versions (which must agree), the integer width and byte strings from the
 *   1.33 `_schemas` validators of kubernetes-models (`api-field-types.ts`).
 * - OpenKruise Advanced DaemonSet (`apps.kruise.io/v1alpha1`): the apps/v1 tree with the fields of
 *   `apis/apps/v1alpha1/daemonset_types.go` and `apis/apps/pub/lifecycle.go` of openkruise/kruise ({@link KRUISE}).
 */

import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { keywordShape, refineScalars } from './api-field-types';

const ROOT = path.join(__dirname, '..');
const TARGET = path.join(ROOT, 'src', 'k8s', 'api-fields', 'fields.generated.ts');
const CDK8S_PLUS = path.join(ROOT, 'node_modules', 'cdk8s-plus-28', 'lib', 'imports', 'k8s.d.ts');
const MODELS = path.join(ROOT, 'node_modules', 'kubernetes-models');

/**
 * A field's value shape: a scalar (`string`, `boolean`, `int32`, `int64`, `number`, `byte`, `quantity`, `time`), `%`
 * int-or-string, `*` free-form (anything below is accepted), `[X` a list of X, `{X` a map (any keys) of X, anything
 * else (a name with a dot) the name of an object type. See `src/k8s/api-fields/model.ts`.
 */
type Shape = string;
type Fields = Map<string, Shape>;
/** Object types by name. */
type Types = Map<string, Fields>;

interface KindSource {
  readonly apiVersion: string;
  readonly kind: string;
  /** The `Kube…Props` interface of cdk8s-plus-28, when 1.28 serves the kind. */
  readonly cdk8s?: string;
  /** The kubernetes-models declaration file (without `.d.ts`) and interface, when 1.33 serves the kind. */
  readonly models?: readonly [string, string];
  /** The first version that serves the kind, when newer than 1.28, with its source. */
  readonly from?: readonly [string, string];
}

/** Every kind the library reads or emits. */
const KINDS: readonly KindSource[] = [
  { apiVersion: 'apps/v1', kind: 'DaemonSet', cdk8s: 'KubeDaemonSetProps', models: ['apps/v1/DaemonSet', 'IDaemonSet'] },
  { apiVersion: 'v1', kind: 'ConfigMap', cdk8s: 'KubeConfigMapProps', models: ['v1/ConfigMap', 'IConfigMap'] },
  { apiVersion: 'v1', kind: 'Namespace', cdk8s: 'KubeNamespaceProps', models: ['v1/Namespace', 'INamespace'] },
  { apiVersion: 'v1', kind: 'ResourceQuota', cdk8s: 'KubeResourceQuotaProps', models: ['v1/ResourceQuota', 'IResourceQuota'] },
  { apiVersion: 'v1', kind: 'Secret', cdk8s: 'KubeSecretProps', models: ['v1/Secret', 'ISecret'] },
  { apiVersion: 'v1', kind: 'Service', cdk8s: 'KubeServiceProps', models: ['v1/Service', 'IService'] },
  { apiVersion: 'v1', kind: 'ServiceAccount', cdk8s: 'KubeServiceAccountProps', models: ['v1/ServiceAccount', 'IServiceAccount'] },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    cdk8s: 'KubeClusterRoleProps',
    models: ['rbac.authorization.k8s.io/v1/ClusterRole', 'IClusterRole'],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    cdk8s: 'KubeClusterRoleBindingProps',
    models: ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', 'IClusterRoleBinding'],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    cdk8s: 'KubeRoleProps',
    models: ['rbac.authorization.k8s.io/v1/Role', 'IRole'],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    cdk8s: 'KubeRoleBindingProps',
    models: ['rbac.authorization.k8s.io/v1/RoleBinding', 'IRoleBinding'],
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1beta1',
    kind: 'ValidatingAdmissionPolicy',
    cdk8s: 'KubeValidatingAdmissionPolicyV1Beta1Props',
    // not in the 1.33 API document of kubernetes-models: the 1.28 fields serve every version
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1beta1',
    kind: 'ValidatingAdmissionPolicyBinding',
    cdk8s: 'KubeValidatingAdmissionPolicyBindingV1Beta1Props',
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    models: ['admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy', 'IValidatingAdmissionPolicy'],
    from: ['1.30', 'CHANGELOG-1.30: ValidatingAdmissionPolicy graduated to GA (admissionregistration.k8s.io/v1), KEP-3488'],
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    models: ['admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding', 'IValidatingAdmissionPolicyBinding'],
    from: ['1.30', 'CHANGELOG-1.30: ValidatingAdmissionPolicy graduated to GA (admissionregistration.k8s.io/v1), KEP-3488'],
  },
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    cdk8s: 'KubeNetworkPolicyProps',
    models: ['networking.k8s.io/v1/NetworkPolicy', 'INetworkPolicy'],
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    cdk8s: 'KubePriorityClassProps',
    models: ['scheduling.k8s.io/v1/PriorityClass', 'IPriorityClass'],
  },
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    cdk8s: 'KubePodDisruptionBudgetProps',
    models: ['policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget'],
  },
];

/**
 * First versions of fields that 1.33 has and 1.28 lacks, keyed `<type>.<field>`, each with the changelog entry it
 * comes from. Fields of 1.33 that are missing here are recorded without a first version.
 */
const GATES = 'kubernetes/website content/en/docs/reference/command-line-tools-reference/feature-gates/';
const FIRST_VERSIONS: { readonly [typeField: string]: readonly [string, string] } = {
  'core.v1.PodSecurityContext.appArmorProfile': ['1.30', `${GATES}AppArmorFields.md (beta from 1.30)`],
  'core.v1.SecurityContext.appArmorProfile': ['1.30', `${GATES}AppArmorFields.md (beta from 1.30)`],
  'core.v1.PodAffinityTerm.matchLabelKeys': ['1.29', `${GATES}MatchLabelKeysInPodAffinity.md (alpha from 1.29)`],
  'core.v1.PodAffinityTerm.mismatchLabelKeys': ['1.29', `${GATES}MatchLabelKeysInPodAffinity.md (alpha from 1.29)`],
  'core.v1.LifecycleHandler.sleep': ['1.29', `${GATES}PodLifecycleSleepAction.md (alpha from 1.29)`],
  'core.v1.Lifecycle.stopSignal': ['1.33', `${GATES}ContainerStopSignals.md (alpha from 1.33)`],
  'core.v1.VolumeMount.recursiveReadOnly': ['1.30', `${GATES}RecursiveReadOnlyMounts.md (alpha from 1.30)`],
  'core.v1.PodSecurityContext.seLinuxChangePolicy': ['1.32', `${GATES}SELinuxChangePolicy.md (alpha from 1.32)`],
  'core.v1.PodSecurityContext.supplementalGroupsPolicy': ['1.31', `${GATES}SupplementalGroupsPolicy.md (alpha from 1.31)`],
  'core.v1.PersistentVolumeClaimSpec.volumeAttributesClassName': ['1.29', `${GATES}VolumeAttributesClass.md (alpha from 1.29)`],
  'core.v1.VolumeProjection.clusterTrustBundle': ['1.29', `${GATES}ClusterTrustBundleProjection.md (alpha from 1.29)`],
  'core.v1.Volume.image': ['1.31', `${GATES}ImageVolume.md (alpha from 1.31)`],
  'core.v1.PodSpec.resources': ['1.32', `${GATES}PodLevelResources.md (alpha from 1.32)`],
  'core.v1.ServiceSpec.trafficDistribution': ['1.30', `${GATES}ServiceTrafficDistribution.md (alpha from 1.30)`],
};

/** The fields OpenKruise adds to the apps/v1 DaemonSet (openkruise/kruise apis/apps/v1alpha1/daemonset_types.go). */
const KRUISE = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'DaemonSet',
  source: 'openkruise/kruise apis/apps/v1alpha1/daemonset_types.go, apis/apps/pub/lifecycle.go',
  types: {
    'kruise.apps.v1alpha1.DaemonSet': { spec: 'kruise.apps.v1alpha1.DaemonSetSpec' },
    'kruise.apps.v1alpha1.DaemonSetSpec': {
      burstReplicas: '%',
      lifecycle: 'kruise.apps.pub.Lifecycle',
      updateStrategy: 'kruise.apps.v1alpha1.DaemonSetUpdateStrategy',
    },
    'kruise.apps.v1alpha1.DaemonSetUpdateStrategy': { type: 'string', rollingUpdate: 'kruise.apps.v1alpha1.RollingUpdateDaemonSet' },
    'kruise.apps.v1alpha1.RollingUpdateDaemonSet': {
      rollingUpdateType: 'string',
      maxUnavailable: '%',
      maxSurge: '%',
      selector: 'meta.v1.LabelSelector',
      partition: 'int32',
      paused: 'boolean',
    },
    'kruise.apps.pub.Lifecycle': {
      preDelete: 'kruise.apps.pub.LifecycleHook',
      inPlaceUpdate: 'kruise.apps.pub.LifecycleHook',
      preNormal: 'kruise.apps.pub.LifecycleHook',
    },
    'kruise.apps.pub.LifecycleHook': { labelsHandler: '{string', finalizersHandler: '[string', markPodNotReady: 'boolean' },
  } as { [type: string]: { [field: string]: Shape } },
};

/** `io.k8s.api.core.v1.PodSpec` → `core.v1.PodSpec`; `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` → `meta.v1.ObjectMeta`. */
function shortName(definition: string): string {
  return definition
    .replace(/^io\.k8s\.api\./, '')
    .replace(/^io\.k8s\.apimachinery\.pkg\.apis\./, '')
    .replace(/^io\.k8s\.apimachinery\.pkg\./, '')
    .replace(/^io\.k8s\.apiextensions-apiserver\.pkg\.apis\./, '')
    .replace(/^io\.k8s\.kube-aggregator\.pkg\.apis\./, '');
}

/** `IoK8sApiCoreV1AppArmorProfile` → `core.v1.AppArmorProfile` (the kubernetes-models spelling of a definition). */
function shortModelName(name: string): string {
  const m = /^IoK8s(?:Api|ApimachineryPkgApis|ApimachineryPkg)([A-Z][a-z]+)(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)$/.exec(name);
  if (!m) throw new Error(`unexpected kubernetes-models type name ${name}`);
  return `${m[1].toLowerCase()}.${m[2].toLowerCase()}.${m[3]}`;
}

function schemaTag(node: ts.Node): string | undefined {
  for (const tag of ts.getJSDocTags(node)) {
    if (tag.tagName.text === 'schema' && typeof tag.comment === 'string') return tag.comment.trim();
  }
  return undefined;
}

function program(files: string[]): ts.Program {
  return ts.createProgram(files, { noEmit: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022 });
}

/** Reads the 1.28 tree from cdk8s-plus-28. Returns the object types and the root type of each kind. */
function read128(): { types: Types; roots: Map<string, string> } {
  // Parsed on its own (with parent links, which JSDoc tags need); every type it references is declared in it.
  const source = ts.createSourceFile(CDK8S_PLUS, fs.readFileSync(CDK8S_PLUS, 'utf8'), ts.ScriptTarget.ES2022, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  // cdk8s-plus-28 writes IntOrString and Quantity as classes, metav1.Time as Date, enums as string enums
  const scalars: { [name: string]: Shape } = { IntOrString: '%', Quantity: 'quantity', Date: 'time' };
  const enums = new Set<string>();
  for (const s of source.statements) {
    if (ts.isInterfaceDeclaration(s)) interfaces.set(s.name.text, s);
    else if (ts.isEnumDeclaration(s)) enums.add(s.name.text);
  }
  const types: Types = new Map();
  const nameOf = (decl: ts.InterfaceDeclaration): string => {
    const tag = schemaTag(decl);
    if (!tag) throw new Error(`${decl.name.text} has no @schema tag`);
    return shortName(tag);
  };
  const shapeOf = (node: ts.TypeNode, where: string): Shape => {
    const keyword = keywordShape(node);
    if (keyword !== undefined) return keyword;
    if (ts.isArrayTypeNode(node)) return `[${shapeOf(node.elementType, where)}`;
    if (ts.isTypeLiteralNode(node)) {
      const index = node.members.find(ts.isIndexSignatureDeclaration);
      if (index && node.members.length === 1) return `{${shapeOf(index.type, where)}`;
    }
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const name = node.typeName.text;
      if (scalars[name] !== undefined) return scalars[name];
      if (enums.has(name)) return 'string';
      const decl = interfaces.get(name);
      if (decl) return visit(decl);
    }
    throw new Error(`cdk8s-plus-28: unexpected type ${node.getText(source)} at ${where}`);
  };
  const visit = (decl: ts.InterfaceDeclaration): string => {
    const name = nameOf(decl);
    if (types.has(name)) return name;
    const fields: Fields = new Map();
    types.set(name, fields);
    for (const m of decl.members) {
      if (!ts.isPropertySignature(m) || !m.type) continue;
      const tag = schemaTag(m);
      const hash = tag?.indexOf('#') ?? -1;
      if (!tag || hash < 0) throw new Error(`${decl.name.text}.${m.name.getText(source)} has no @schema tag`);
      const json = tag.slice(hash + 1);
      fields.set(json, shapeOf(m.type, `${name}.${json}`));
    }
    return name;
  };
  const roots = new Map<string, string>();
  for (const k of KINDS) {
    if (!k.cdk8s) continue;
    const decl = interfaces.get(k.cdk8s);
    if (!decl) throw new Error(`cdk8s-plus-28 has no ${k.cdk8s}`);
    const name = visit(decl);
    // The construct classes add apiVersion and kind; status is known to the API server (ignored on create).
    const fields = types.get(name)!;
    fields.set('apiVersion', 'string');
    fields.set('kind', 'string');
    if (!fields.has('status')) fields.set('status', '*');
    roots.set(`${k.apiVersion} ${k.kind}`, name);
  }
  return { types, roots };
}

/** Reads the 1.33 tree from kubernetes-models. */
function read133(): { types: Types; roots: Map<string, string> } {
  const files = KINDS.filter((k) => k.models).map((k) => path.join(MODELS, `${k.models![0]}.d.ts`));
  const prog = program(files);
  const checker = prog.getTypeChecker();
  const types: Types = new Map();
  const special: { [name: string]: Shape } = {
    IoK8sApimachineryPkgUtilIntstrIntOrString: '%',
    IoK8sApimachineryPkgApiResourceQuantity: 'quantity',
    IoK8sApimachineryPkgApisMetaV1Time: 'time',
    IoK8sApimachineryPkgApisMetaV1MicroTime: 'time',
    IoK8sApimachineryPkgApisMetaV1FieldsV1: '*',
    IoK8sApimachineryPkgRuntimeRawExtension: '*',
  };
  const shapeOf = (node: ts.TypeNode, where: string): Shape => {
    const keyword = keywordShape(node);
    if (keyword !== undefined) return keyword;
    if (ts.isUnionTypeNode(node)) {
      const shapes = new Set(node.types.map((t) => shapeOf(t, where)));
      if (shapes.size === 1) return [...shapes][0];
      throw new Error(`kubernetes-models: mixed union at ${where}`);
    }
    if (ts.isArrayTypeNode(node)) return `[${shapeOf(node.elementType, where)}`;
    if (ts.isTypeLiteralNode(node)) {
      const index = node.members.find(ts.isIndexSignatureDeclaration);
      if (index && node.members.length === 1) return `{${shapeOf(index.type, where)}`;
      if (node.members.length === 0) return '*';
    }
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const ref = node.typeName.text;
      if (ref === 'Array' && node.typeArguments?.length === 1) return `[${shapeOf(node.typeArguments[0], where)}`;
      if (ref.startsWith('IIoK8s')) {
        const model = ref.slice(1);
        if (special[model] !== undefined) return special[model];
        let symbol = checker.getSymbolAtLocation(node.typeName);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        const decl = symbol?.declarations?.[0];
        if (decl && ts.isInterfaceDeclaration(decl)) return visit(decl, shortModelName(model));
        if (decl && ts.isTypeAliasDeclaration(decl)) return shapeOf(decl.type, where);
      }
    }
    throw new Error(`kubernetes-models: unexpected type ${node.getText()} at ${where}`);
  };
  const visit = (decl: ts.InterfaceDeclaration, name: string): string => {
    if (types.has(name)) return name;
    const fields: Fields = new Map();
    types.set(name, fields);
    for (const m of decl.members) {
      if (!ts.isPropertySignature(m) || !m.type) continue;
      const json = ts.isStringLiteral(m.name) || ts.isIdentifier(m.name) ? m.name.text : m.name.getText();
      fields.set(json, shapeOf(m.type, `${name}.${json}`));
    }
    return name;
  };
  const roots = new Map<string, string>();
  for (const k of KINDS) {
    if (!k.models) continue;
    const file = prog.getSourceFile(path.join(MODELS, `${k.models[0]}.d.ts`));
    if (!file) throw new Error(`kubernetes-models has no ${k.models[0]}.d.ts`);
    const decl = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === k.models![1]);
    if (!decl) throw new Error(`kubernetes-models has no ${k.models.join(' ')}`);
    const group = k.apiVersion.includes('/') ? k.apiVersion.split('/')[0].split('.')[0] : 'core';
    const version = k.apiVersion.split('/').pop()!;
    const name = visit(decl, `${group}.${version}.${k.kind}`);
    // TypeMeta declares apiVersion and kind; status is free-form as in the 1.28 tree.
    const fields = types.get(name)!;
    fields.set('apiVersion', 'string');
    fields.set('kind', 'string');
    fields.set('status', '*');
    roots.set(`${k.apiVersion} ${k.kind}`, name);
  }
  return { types, roots };
}

/** A field in the merged tree: its shape, and the first (or last) version that has it when that is not every version. */
interface MergedField {
  shape: Shape;
  /** First version with the field; `'?'` when only "after 1.28, by 1.33" is known. */
  from?: string;
  /** Source of {@link from}. */
  fromSource?: string;
  /** Last version with the field (1.28 has it, 1.33 does not); `'?'` when unknown. */
  until?: string;
}

function typeOfShape(shape: Shape): string | undefined {
  let s = shape;
  while (s.startsWith('[') || s.startsWith('{')) s = s.slice(1);
  // scalar shapes have no dot; every type name has one
  return s.includes('.') ? s : undefined;
}

function withType(shape: Shape, type: string): Shape {
  const prefix = /^[[{]*/.exec(shape)![0];
  return prefix + type;
}

/**
 * Merges the 1.33 tree into the 1.28 tree, walking both from the same roots. A merged type takes its 1.33 name
 * (1.29 renamed some types, e.g. a claim's `ResourceRequirements` to `VolumeResourceRequirements`), else its 1.28 one.
 */
function merge(
  t28: Types,
  t33: Types,
  pairs: Array<[string | undefined, string | undefined]>,
): { types: Map<string, Map<string, MergedField>>; roots: string[]; unknownFirst: string[]; removed: string[] } {
  const out = new Map<string, Map<string, MergedField>>();
  const mismatches: string[] = [];
  const unknownFirst: string[] = [];
  const removed: string[] = [];
  const walk = (n28: string | undefined, n33: string | undefined): string => {
    const name = n33 ?? n28!;
    if (out.has(name)) return name;
    const fields = new Map<string, MergedField>();
    out.set(name, fields);
    const f28 = n28 === undefined ? undefined : t28.get(n28)!;
    const f33 = n33 === undefined ? undefined : t33.get(n33)!;
    for (const [f, shape28] of f28 ?? []) {
      const shape33 = f33?.get(f);
      const child28 = typeOfShape(shape28);
      const child33 = shape33 === undefined ? undefined : typeOfShape(shape33);
      if (shape33 !== undefined && (child28 ? withType(shape28, '') !== withType(shape33, '') || !child33 : shape28 !== shape33)) {
        // a field whose JSON type changed would need a type per version; the API compatibility rules forbid it
        mismatches.push(`${name}.${f}: 1.28 ${shape28}, 1.33 ${shape33}`);
      }
      const shape = child28 ? withType(shape28, walk(child28, child33)) : shape28;
      const mf: MergedField = { shape };
      if (f33 && shape33 === undefined) {
        mf.until = '?';
        removed.push(`${name}.${f}`);
      }
      fields.set(f, mf);
    }
    for (const [f, shape33] of f33 ?? []) {
      if (fields.has(f)) continue;
      const child33 = typeOfShape(shape33);
      const shape = child33 ? withType(shape33, walk(undefined, child33)) : shape33;
      if (f28 === undefined) {
        // a type reached only through a newer field: its fields arrive with that field
        fields.set(f, { shape });
        continue;
      }
      const known = FIRST_VERSIONS[`${name}.${f}`];
      if (!known) unknownFirst.push(`${name}.${f}`);
      fields.set(f, { shape, from: known ? known[0] : '?', fromSource: known?.[1] });
    }
    return name;
  };
  // Kinds that both versions serve first, so that a shared type (ObjectMeta) is merged before a kind that only one
  // version serves reaches it.
  const roots: string[] = [];
  pairs.forEach(([a, b], i) => {
    if (a !== undefined && b !== undefined) roots[i] = walk(a, b);
  });
  pairs.forEach(([a, b], i) => {
    if (a === undefined || b === undefined) roots[i] = walk(a, b);
  });
  if (mismatches.length > 0) throw new Error(`fields whose JSON type differs between 1.28 and 1.33:\n  ${mismatches.join('\n  ')}`);
  return { types: out, roots, unknownFirst, removed };
}

function render(): { text: string; unknownFirst: string[]; removed: string[]; unknownWidth: string[] } {
  const v28 = read128();
  const v33 = read133();
  const pairs: Array<[string | undefined, string | undefined]> = [];
  for (const k of KINDS) {
    const key = `${k.apiVersion} ${k.kind}`;
    pairs.push([v28.roots.get(key), v33.roots.get(key)]);
  }
  const { types, roots, unknownFirst, removed } = merge(v28.types, v33.types, pairs);
  const unknownWidth = refineScalars(types);

  // OpenKruise: the apps/v1 DaemonSet with its own spec and update strategy.
  const kruiseTypes = new Map<string, Map<string, MergedField>>();
  const ds = roots[KINDS.findIndex((k) => k.apiVersion === 'apps/v1' && k.kind === 'DaemonSet')];
  const dsFields = types.get(ds)!;
  const specName = typeOfShape(dsFields.get('spec')!.shape)!;
  for (const [name, add] of Object.entries(KRUISE.types)) {
    const base =
      name === 'kruise.apps.v1alpha1.DaemonSet'
        ? dsFields
        : name === 'kruise.apps.v1alpha1.DaemonSetSpec'
          ? types.get(specName)!
          : undefined;
    const fields = new Map<string, MergedField>(base ? [...base].map(([f, mf]) => [f, { ...mf }]) : []);
    for (const [f, shape] of Object.entries(add)) fields.set(f, { shape });
    kruiseTypes.set(name, fields);
  }
  for (const [name, fields] of kruiseTypes) types.set(name, fields);

  const kinds: { [key: string]: { type: string; from?: string; fromSource?: string } } = {};
  KINDS.forEach((k, i) => {
    const key = `${k.apiVersion} ${k.kind}`;
    kinds[key] = k.from ? { type: roots[i], from: k.from[0], fromSource: k.from[1] } : { type: roots[i] };
  });
  kinds[`${KRUISE.apiVersion} ${KRUISE.kind}`] = { type: 'kruise.apps.v1alpha1.DaemonSet' };

  const sortedTypes: { [name: string]: { [field: string]: string | string[] } } = {};
  for (const name of [...types.keys()].sort()) {
    const entry: { [field: string]: string | string[] } = {};
    for (const f of [...types.get(name)!.keys()].sort()) {
      const mf = types.get(name)!.get(f)!;
      entry[f] = mf.from !== undefined ? [mf.shape, mf.from] : mf.until !== undefined ? [mf.shape, '', mf.until] : mf.shape;
    }
    sortedTypes[name] = entry;
  }
  const sources: { [typeField: string]: string } = {};
  for (const [tf, [, src]] of Object.entries(FIRST_VERSIONS)) sources[tf] = src;
  const data = {
    sources: {
      '1.28': `cdk8s-plus-28@${pkgVersion('cdk8s-plus-28')} lib/imports/k8s.d.ts`,
      '1.33': `kubernetes-models@${pkgVersion('kubernetes-models')}`,
      kruise: KRUISE.source,
    },
    kinds,
    types: sortedTypes,
    firstVersionSources: sources,
  };
  const text =
    '// Generated by scripts/gen-api-fields.ts (npm run docs:api-fields) from the sources it names; do not edit.\n' +
    "import type { ApiFieldData } from './model';\n\n" +
    `/** The field trees of the kinds the library reads or emits, Kubernetes 1.28 to 1.33. */\nexport const API_FIELD_DATA: ApiFieldData = ${JSON.stringify(data, null, 2)};\n`;
  return { text, unknownFirst, removed, unknownWidth };
}

function pkgVersion(name: string): string {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** The generated file's text, formatted as prettier formats the sources. */
async function generate(): Promise<{ text: string; unknownFirst: string[]; removed: string[]; unknownWidth: string[] }> {
  const r = render();
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(TARGET)) ?? {};
  return { ...r, text: await prettier.format(r.text, { ...options, filepath: TARGET }) };
}

async function mainCli(): Promise<void> {
  const { text, unknownFirst, removed, unknownWidth } = await generate();
  if (process.argv.includes('--check')) {
    const committed = fs.existsSync(TARGET) ? fs.readFileSync(TARGET, 'utf8') : '';
    if (committed !== text) {
      process.stderr.write(`${path.relative(process.cwd(), TARGET)} is stale; run npm run docs:api-fields\n`);
      process.exit(1);
    }
    return;
  }
  fs.writeFileSync(TARGET, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), TARGET)}\n`);
  if (process.argv.includes('--verbose')) {
    process.stdout.write(`newer than 1.28 without a known first version (${unknownFirst.length}):\n  ${unknownFirst.join('\n  ')}\n`);
    process.stdout.write(`in 1.28, not in 1.33 (${removed.length}):\n  ${removed.join('\n  ')}\n`);
    process.stdout.write(`numbers of unknown width (${unknownWidth.length}):\n  ${unknownWidth.join('\n  ')}\n`);
  }
}

if (require.main === module) {
  mainCli().catch((e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
}
