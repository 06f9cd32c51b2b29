/**
 * Which fields each Kubernetes version has, for every object kind the library reads or emits: DaemonSets (apps/v1
 * and OpenKruise `apps.kruise.io/v1alpha1`) with the whole pod template, and the objects emitted alongside them
 * (ServiceAccount, Namespace, ResourceQuota, ConfigMap, Secret, Service, RBAC, ValidatingAdmissionPolicy and its
 * binding, NetworkPolicy, PriorityClass, PodDisruptionBudget).
 *
 * A field the target version does not have is what the API server refuses under strict field validation (the
 * default of kubectl since 1.25: `strict decoding error: unknown field "spec.template.spec.securityContext.appArmorProfile"`).
 * The data is generated from installed sources (`scripts/gen-api-fields.ts`); this module is pure and loads
 * neither cdk8s nor cdk8s-plus.
 */

import { listProblem, objectProblem, Scalar, scalarFits, scalarOf, scalarProblem } from './decode';
import { jsonPath } from '../json';
import { NodeServiceError, show } from '../node-service-error';
import type { ApiFieldData, FieldEntry } from './model';
import {
  DEFAULT_KUBERNETES_VERSION,
  KUBERNETES_VERSION_RANGE,
  KUBERNETES_VERSIONS,
  KubernetesVersion,
  kubernetesVersionError,
  minor,
} from './versions';

let data: ApiFieldData | undefined;
/** The generated field tables, loaded on first use (requiring the library does not evaluate them). */
function fieldData(): ApiFieldData {
  data ??= (require('./fields.generated') as typeof import('./fields.generated')).API_FIELD_DATA;
  return data;
}

/** The version whose fields are read from the 1.28 API document (older versions are not supported). */
const BASE = KubernetesVersion.V1_28;
/** The version whose fields are read from the 1.33 API document. */
const NEWEST = KubernetesVersion.V1_33;

/** A field of an object that the target Kubernetes version does not have. */
export interface UnknownField {
  /** JSON path of the field, e.g. `spec.template.spec.securityContext.appArmorProfile`. */
  readonly path: string;
  /** The field's name as written. */
  readonly field: string;
  /** The first version that has the field, when it is a newer field whose first version is known. */
  readonly existsFrom?: string;
  /** A later version known to have the field, when it is a newer field whose first version is not known. */
  readonly existsIn?: string;
  /** An older version known to have the field, when later versions removed it. */
  readonly removedAfter?: string;
  /** The sibling field of the target version the name is closest to (a likely typo), when there is one. */
  readonly didYouMean?: string;
}

/** A field whose value the API server cannot decode into the field's type (a string where a boolean goes, an int32 past 2^31-1). */
export interface WrongTypeField {
  /** JSON path of the field, e.g. `spec.template.spec.hostNetwork`. */
  readonly path: string;
  /** What is wrong, after the path: the value as given and the type that goes there, e.g. `is the string "true"; a boolean (true or false) goes here`. */
  readonly problem: string;
}

/** Options of {@link unknownFields}. */
export interface UnknownFieldsOptions {
  /**
   * The Kubernetes version the object is meant for.
   * @default KubernetesVersion.V1_28
   */
  readonly version?: KubernetesVersion;
}

/** A field's shape and the versions that have it. */
interface FieldInfo {
  readonly shape: string;
  /** First version with the field (`'?'`: after 1.28, by 1.33), when not every version has it. */
  readonly from?: string;
  /** Last version with the field (`'?'`: from 1.28, before 1.33), when later versions removed it. */
  readonly until?: string;
}

function fieldInfo(entry: FieldEntry): FieldInfo {
  if (typeof entry === 'string') return { shape: entry };
  return entry[1] !== '' ? { shape: entry[0], from: entry[1] } : { shape: entry[0], until: entry[2] };
}

const BASE_MINOR = minor(BASE);
const NEWEST_MINOR = minor(NEWEST);

/**
 * Whether the version (its minor number) has the field: `true`, `false`, or `undefined` when only the two versions
 * on either side are known (a newer field without a known first version, or a removed field without a known last
 * version, on a version between 1.28 and 1.33). An unknown answer is not reported: an error must be right.
 */
function hasField(info: FieldInfo, v: number): boolean | undefined {
  if (info.from !== undefined) {
    if (info.from === '?') return v >= NEWEST_MINOR ? true : v <= BASE_MINOR ? false : undefined;
    return v >= minor(info.from);
  }
  if (info.until !== undefined) {
    if (info.until === '?') return v <= BASE_MINOR ? true : v >= NEWEST_MINOR ? false : undefined;
    return v <= minor(info.until);
  }
  return true;
}

/** A field of an object type as one Kubernetes version sees it. */
interface VersionField {
  readonly info: FieldInfo;
  /** {@link hasField} for the version. */
  readonly has: boolean | undefined;
  /** The field's shape, compiled when a walk first goes into the field. */
  node?: ShapeNode;
}

/** What a walk does with a value of a shape. */
const enum ShapeKind {
  /** Nothing: a free-form value, or an object type the data does not have. */
  LEAF,
  /** Checks the value's JSON type (and integer range) against the scalar. */
  SCALAR,
  /** Walks every item with the item shape. */
  LIST,
  /** Walks every value with the value shape. */
  MAP,
  /** Checks every key against the type's fields and walks the fields the version has. */
  TYPE,
}

/** A shape (see `FieldEntry`) compiled for one Kubernetes version. */
interface ShapeNode {
  readonly kind: ShapeKind;
  /** The scalar type (`SCALAR`). */
  readonly scalar?: Scalar;
  /** The shape of the items or values (`LIST`, `MAP`). */
  readonly item?: ShapeNode;
  /** The type's fields by name, in the order of the data (`TYPE`). */
  readonly fields?: ReadonlyMap<string, VersionField>;
  /** The names the version has for certain (the candidates of `didYouMean`), listed on the first unknown field. */
  siblings?: readonly string[];
}

const LEAF: ShapeNode = { kind: ShapeKind.LEAF };

/** Per version, the shapes compiled so far, by shape text; at most versions × shapes entries. */
const VERSION_SHAPES = new Map<string, Map<string, ShapeNode>>();

/** The shapes of `version` (minor `v`) compiled so far. */
interface VersionShapes {
  readonly v: number;
  readonly shapes: Map<string, ShapeNode>;
}

function versionShapes(version: string): VersionShapes {
  let shapes = VERSION_SHAPES.get(version);
  if (shapes === undefined) {
    shapes = new Map();
    VERSION_SHAPES.set(version, shapes);
  }
  return { v: minor(version), shapes };
}

/** The shape `shape` compiled for a version, on first use; the fields of a type are compiled when a walk reaches them. */
function compileShape(table: VersionShapes, shape: string): ShapeNode {
  const known = table.shapes.get(shape);
  if (known !== undefined) return known;
  let node: ShapeNode;
  const first = shape.charCodeAt(0);
  const scalar = scalarOf(shape);
  if (first === 91 /* [ */ || first === 123 /* { */) {
    node = { kind: first === 91 ? ShapeKind.LIST : ShapeKind.MAP, item: compileShape(table, shape.slice(1)) };
  } else if (scalar !== undefined) {
    node = { kind: ShapeKind.SCALAR, scalar };
  } else if (!Object.prototype.hasOwnProperty.call(fieldData().types, shape)) {
    // `*`, and a name that is no type (own properties only: no type is named after a property of every object)
    node = LEAF;
  } else {
    const data = fieldData().types[shape];
    const fields = new Map<string, VersionField>();
    for (const name of Object.keys(data)) {
      const info = fieldInfo(data[name]);
      fields.set(name, { info, has: hasField(info, table.v) });
    }
    node = { kind: ShapeKind.TYPE, fields };
  }
  table.shapes.set(shape, node);
  return node;
}

/** What one walk over an object shares: the version's shapes, the keys down to the value, the findings. */
interface FieldWalk {
  readonly table: VersionShapes;
  /** The keys from the root to the value being walked; a path string is built only for a reported field. */
  readonly keys: Array<string | number>;
  readonly out: UnknownField[];
  readonly wrongTypes: WrongTypeField[];
}

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** The known name `name` most likely stands for: a case-insensitive match first, else the closest by edit distance. */
function suggest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const limit = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The root type of a kind, or `undefined` when the kind is not one the library knows. */
function rootType(apiVersion: unknown, kind: unknown): { readonly type: string; readonly from?: string } | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const key = `${apiVersion} ${kind}`;
  return Object.prototype.hasOwnProperty.call(fieldData().kinds, key) ? fieldData().kinds[key] : undefined;
}

/** Whether the fields of this object's kind (`apiVersion` + `kind`) are known to this module. */
export function isKnownKind(object: unknown): boolean {
  return isPlainObject(object) && rootType(object.apiVersion, object.kind) !== undefined;
}

/**
 * The first version that serves the object's kind when it is newer than `version` (e.g. `'1.30'` for an
 * `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy on 1.28), else `undefined` (served, or not a kind
 * this module knows).
 */
export function kindServedFrom(object: unknown, version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): string | undefined {
  if (!isPlainObject(object)) return undefined;
  const root = rootType(object.apiVersion, object.kind);
  if (root?.from === undefined) return undefined;
  return minor(version) < minor(root.from) ? root.from : undefined;
}

/** Records that the value at the walk's keys cannot be decoded. */
function wrongType(w: FieldWalk, problem: string): void {
  w.wrongTypes.push({ path: jsonPath('', ...w.keys), problem });
}

/**
 * Walks `value` (at `w.keys`) as a value of the shape `node`: checks its JSON type as the API server decodes it
 * (`null` is "unset" for every type), and for an object type every key against the type's fields.
 */
function walk(value: unknown, node: ShapeNode, w: FieldWalk): void {
  if (value === null || value === undefined) return;
  const keys = w.keys;
  switch (node.kind) {
    case ShapeKind.LEAF:
      return;
    case ShapeKind.SCALAR: {
      const problem = scalarProblem(value, node.scalar as Scalar);
      if (problem !== undefined) wrongType(w, problem);
      return;
    }
    case ShapeKind.LIST: {
      if (!Array.isArray(value)) return wrongType(w, listProblem(value));
      const item = node.item as ShapeNode;
      if (item.kind === ShapeKind.LEAF) return;
      for (let i = 0; i < value.length; i++) {
        if (!(i in value)) continue; // a hole, skipped as forEach skips it
        keys.push(i);
        walk(value[i], item, w);
        keys.pop();
      }
      return;
    }
    case ShapeKind.MAP: {
      if (!isPlainObject(value)) return wrongType(w, objectProblem(value, true));
      const item = node.item as ShapeNode;
      if (item.kind === ShapeKind.LEAF) return;
      for (const k of Object.keys(value)) {
        keys.push(k);
        walk(value[k], item, w);
        keys.pop();
      }
      return;
    }
    default:
      if (!isPlainObject(value)) return wrongType(w, objectProblem(value, false));
      walkFields(value, node, w);
  }
}

/** Walks the fields of an object of an object type: unknown names, fields the version lacks, and each field's value. */
function walkFields(value: { [key: string]: unknown }, node: ShapeNode, w: FieldWalk): void {
  const keys = w.keys;
  const fields = node.fields as ReadonlyMap<string, VersionField>;
  for (const key of Object.keys(value)) {
    const field = fields.get(key);
    if (field === undefined) {
      node.siblings ??= [...fields].filter(([, f]) => f.has === true).map(([name]) => name);
      const didYouMean = suggest(key, node.siblings);
      const here = jsonPath('', ...keys, key);
      w.out.push(didYouMean === undefined ? { path: here, field: key } : { path: here, field: key, didYouMean });
      continue;
    }
    const info = field.info;
    if (field.has === false) {
      const here = jsonPath('', ...keys, key);
      if (info.from !== undefined) {
        w.out.push(info.from === '?' ? { path: here, field: key, existsIn: NEWEST } : { path: here, field: key, existsFrom: info.from });
      } else {
        w.out.push({ path: here, field: key, removedAfter: info.until === '?' ? BASE : info.until });
      }
      continue;
    }
    const child = (field.node ??= compileShape(w.table, info.shape));
    if (child.kind === ShapeKind.LEAF) continue;
    const v = value[key];
    // a scalar inline (most fields are), without a call for the values that fit
    if (child.kind === ShapeKind.SCALAR && (v === null || scalarFits(v, child.scalar as Scalar))) continue;
    keys.push(key);
    walk(v, child, w);
    keys.pop();
  }
}

/** What the API server's decoding of an object would refuse: its unknown fields and its values of the wrong type. */
export interface FieldCheck {
  /** Fields the version does not have (see {@link unknownFields}). */
  readonly unknownFields: UnknownField[];
  /** Values the API server cannot decode into their field's type (see {@link wrongTypeFields}). */
  readonly wrongTypes: WrongTypeField[];
}

/**
 * One walk over `object` for Kubernetes `version`: its unknown fields and its values of the wrong JSON type or
 * integer range, each in document order. Empty for kinds this module does not know (custom resources). An unsupported
 * `options.version` throws a {@link NodeServiceError} naming `caller`, the function the user called.
 */
export function checkFields(object: unknown, options: UnknownFieldsOptions = {}, caller: string = 'checkFields'): FieldCheck {
  const version = options.version ?? DEFAULT_KUBERNETES_VERSION;
  const error = kubernetesVersionError(version);
  if (error !== undefined) {
    throw new NodeServiceError(
      caller,
      [
        {
          field: `${caller}(options.version)`,
          value: show(version),
          problem: error,
          fix: `pass a supported version (${KUBERNETES_VERSION_RANGE})`,
        },
      ],
      'arguments',
    );
  }
  if (!isPlainObject(object)) return { unknownFields: [], wrongTypes: [] };
  const root = rootType(object.apiVersion, object.kind);
  if (root === undefined) return { unknownFields: [], wrongTypes: [] };
  const table = versionShapes(version);
  const walked: FieldWalk = { table, keys: [], out: [], wrongTypes: [] };
  walk(object, compileShape(table, root.type), walked);
  return { unknownFields: walked.out, wrongTypes: walked.wrongTypes };
}

/**
 * The values of `object` that the API server of `version` cannot decode into their field's type, at any depth, in
 * document order: a string where a boolean or an integer goes (`hostNetwork: "true"`), an integer beyond int32 or
 * int64, a fraction where an integer goes, a number or boolean where a string goes, a list where an object goes and
 * the reverse, a map value of the wrong type (a label `enabled: true`), a `[]byte` that is not base64. Int-or-string
 * fields take a string or an int32, quantities a string or a number; free-form values (`status`, RawExtension) are
 * not looked into, and `null` is accepted everywhere (it means "unset"). Empty for kinds this module does not know.
 * A TypeScript convenience, kept: the same as `ApiFields.wrongTypeFields`, the form for every jsii language.
 */
export function wrongTypeFields(object: unknown, options: UnknownFieldsOptions = {}): WrongTypeField[] {
  return checkFields(object, options, 'wrongTypeFields').wrongTypes;
}

/** One sentence for a value of the wrong type: `field "spec.template.spec.hostNetwork" is the string "true"; …`. */
export function describeWrongType(field: WrongTypeField): string {
  return `field "${field.path}" ${field.problem}`;
}

/**
 * The fields of `object` that Kubernetes `version` does not have, at any depth, in document order: unknown names
 * (with the closest sibling as `didYouMean`), fields newer than the version (with the first version that has them)
 * and fields the version removed. Label and annotation maps, ConfigMap data and other free-form values are not
 * looked into. Returns an empty list for kinds this module does not know (see {@link isKnownKind}).
 * A TypeScript convenience, kept: the same as `ApiFields.unknownFields`, the form for every jsii language.
 */
export function unknownFields(object: unknown, options: UnknownFieldsOptions = {}): UnknownField[] {
  return checkFields(object, options, 'unknownFields').unknownFields;
}

/**
 * One sentence for an unknown field in the words of the API server's strict decoding error, with the version that
 * has it or the closest known name, e.g. `unknown field "spec.template.spec.securityContext.appArmorProfile":
 * appArmorProfile exists from Kubernetes 1.30; the target is 1.28` or `unknown field
 * "spec.template.spec.tolerations[0].opertor" (did you mean "operator"?)`.
 */
export function describeUnknownField(field: UnknownField, version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): string {
  const head = `unknown field "${field.path}"`;
  if (field.existsFrom !== undefined) return `${head}: ${field.field} exists from Kubernetes ${field.existsFrom}; the target is ${version}`;
  if (field.existsIn !== undefined) {
    return `${head}: ${field.field} is not in Kubernetes ${version} (it exists in ${field.existsIn}); the target is ${version}`;
  }
  if (field.removedAfter !== undefined) {
    return `${head}: ${field.field} is not in Kubernetes ${version} (it exists in ${field.removedAfter}); the target is ${version}`;
  }
  return field.didYouMean !== undefined ? `${head} (did you mean "${field.didYouMean}"?)` : head;
}

/** One sentence for an object whose kind the target version does not serve (see {@link kindServedFrom}). */
export function describeUnservedKind(
  object: { readonly apiVersion?: unknown; readonly kind?: unknown },
  servedFrom: string,
  version: KubernetesVersion,
): string {
  return `${String(object.apiVersion)} ${String(object.kind)} is served from Kubernetes ${servedFrom}; the target is ${version}`;
}

/**
 * Every reason Kubernetes `version` would refuse `object` for its kind or its fields, one sentence each (empty when
 * it accepts them, or when the kind is not one this module knows). Constructs call this on what they are about to
 * emit, so that a prop that needs a newer version is refused before any YAML exists.
 * A TypeScript convenience, kept: the same as `ApiFields.versionProblems`, the form for every jsii language.
 */
export function versionProblems(object: unknown, version: KubernetesVersion = DEFAULT_KUBERNETES_VERSION): string[] {
  const served = kindServedFrom(object, version);
  if (served !== undefined) return [describeUnservedKind(object as { apiVersion: unknown; kind: unknown }, served, version)];
  return unknownFields(object, { version }).map((f) => describeUnknownField(f, version));
}

/** The API field knowledge as a class, for languages that have no free functions (jsii). */
export class ApiFields {
  /** The Kubernetes versions the field sets cover (`KUBERNETES_VERSIONS`). */
  public static readonly SUPPORTED_VERSIONS: KubernetesVersion[] = [...KUBERNETES_VERSIONS];
  /** The version checked when none is given (`DEFAULT_KUBERNETES_VERSION`). */
  public static readonly DEFAULT_VERSION: KubernetesVersion = DEFAULT_KUBERNETES_VERSION;

  /**
   * The fields of `object` that the target Kubernetes version does not have; see {@link unknownFields}.
   *
   * @param object a plain Kubernetes object
   * @param options the target version
   */
  public static unknownFields(object: any, options?: UnknownFieldsOptions): UnknownField[] {
    return unknownFields(object, options);
  }

  /**
   * The values of `object` the API server of the target version cannot decode into their field's type; see
   * {@link wrongTypeFields}.
   *
   * @param object a plain Kubernetes object
   * @param options the target version
   */
  public static wrongTypeFields(object: any, options?: UnknownFieldsOptions): WrongTypeField[] {
    return wrongTypeFields(object, options);
  }

  /**
   * Every reason the target version would refuse `object` for its kind or its fields, one sentence each; see
   * {@link versionProblems}.
   *
   * @param object a plain Kubernetes object
   * @param version the target version
   */
  public static versionProblems(object: any, version?: KubernetesVersion): string[] {
    return versionProblems(object, version);
  }

  private constructor() {}
}

export type { ApiFieldData, FieldEntry } from './model';
export { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS, KubernetesVersion, kubernetesVersionError } from './versions';
