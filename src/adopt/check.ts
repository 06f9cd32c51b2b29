/**
 * `import --check`: the synthesized app compared with its input, DaemonSet by DaemonSet, every difference classified
 * (see `classify.ts`), access removed or added listed with the `diff` command's widening semantics, and the other
 * objects compared whole. Pure: it takes the synthesized objects, not the app.
 */

import { diffManifests } from '../day2/diff';
// Gives the diff's coverage analysis the rule catalogue's API-validity judge, so a check run through this module alone
// (the library API, without the CLI) still refuses DaemonSets the API server would reject.
import '../policy/api-validity';
import { asObject } from '../k8s/json';
import { InputObject, jsonEqual } from '../day2/objects';
import { Widening } from '../day2/widening';
import { ClassifiedChange, classifyChange, DifferenceClass } from './classify';
import { identityOf, isImportedDaemonSet } from './input';
import { explainRbac, isRbacObject } from './rbac';
import { coveredNodes } from './pools';
import { expandChange, LeafChange, leafChanges } from './walk';

/** The check of one DaemonSet. */
export interface DaemonSetCheck {
  /** `namespace/name`. */
  readonly daemonSet: string;
  /** Every leaf difference, classified. */
  readonly changes: ClassifiedChange[];
  /** Access the generated DaemonSet has that the input did not (the `diff` command's widenings). */
  readonly accessAdded: Widening[];
  /** Access the input had that the generated DaemonSet does not. */
  readonly accessRemoved: Widening[];
}

/** The check of a whole import. */
export interface CheckResult {
  /** One entry per imported DaemonSet. */
  readonly daemonSets: DaemonSetCheck[];
  /** Input objects (besides DaemonSets) missing from, or different in, the output. */
  readonly objectProblems: string[];
  /** Objects the output has that the input did not (e.g. the library's NetworkPolicy), by identity. */
  readonly objectsAdded: string[];
  /** ServiceAccounts whose RBAC the library creates instead of the input's objects, with the same grants. */
  readonly accessReplaced: string[];
  /** Number of unexplained differences (an object problem counts as one). */
  readonly unexplained: number;
}

/** The classified leaf differences between an input DaemonSet and its synthesized version. */
function classifyDaemonSet(input: unknown, output: unknown, nodes?: readonly unknown[]): ClassifiedChange[] {
  return leafChanges(input, output)
    .flatMap(expandChange)
    .map(daemonSetClassifier(input, output, nodes));
}

/** Paths of the node selection and tolerations of a pod template. */
const PLACEMENT_PATH = /^spec\.template\.spec\.(?:nodeSelector|affinity\.nodeAffinity|affinity$|tolerations)/;

/**
 * The classifier of the leaf differences of one input DaemonSet. With the cluster's `nodes`, a difference in node
 * selection or tolerations is explained when the output runs on exactly the nodes the input runs on.
 */
export function daemonSetClassifier(
  input: unknown,
  output?: unknown,
  nodes?: readonly unknown[],
): (change: LeafChange) => ClassifiedChange {
  const selector = asObject(asObject(asObject(asObject(input).spec).selector).matchLabels);
  // A pod label the input's (immutable) selector uses must stay as it is, whoever else writes it.
  const selected = new Set(Object.keys(selector).map((k) => `spec.template.metadata.labels[${JSON.stringify(k)}]`));
  let same: boolean | undefined;
  const sameNodes = () => {
    if (same === undefined) {
      const a = coveredNodes(input, nodes ?? []);
      same = a.length > 0 && JSON.stringify(a) === JSON.stringify(coveredNodes(output, nodes ?? []));
    }
    return same;
  };
  return (c) => {
    if (selected.has(c.path)) return { ...c, class: DifferenceClass.UNEXPLAINED, why: 'a pod label the selector uses' };
    const classified = classifyChange(c);
    if (classified.class !== DifferenceClass.UNEXPLAINED || nodes === undefined || output === undefined || !PLACEMENT_PATH.test(c.path))
      return classified;
    if (!sameNodes()) return classified;
    return {
      ...c,
      class: DifferenceClass.PLACEMENT,
      why: `the same ${coveredNodes(input, nodes).length} node(s) of the node list selected and tolerated`,
    };
  };
}

function byIdentity(objects: readonly InputObject[]): Map<string, unknown> {
  return new Map(objects.map((o) => [identityOf(o.object), o.object]));
}

/** Compares the synthesized objects with the input objects. */
export function checkImport(input: readonly InputObject[], output: readonly InputObject[], nodes?: readonly unknown[]): CheckResult {
  const produced = byIdentity(output);
  const wanted = byIdentity(input);
  const widen = diffManifests(input, output).daemonSets;
  const narrow = diffManifests(output, input).daemonSets;
  const widenings = (list: typeof widen, key: string) => list.find((d) => `${d.namespace}/${d.name}` === key)?.widenings ?? [];
  const daemonSets: DaemonSetCheck[] = [];
  const objectProblems: string[] = [];
  const rbac: Record<string, any>[] = [];
  for (const o of input) {
    const id = identityOf(o.object);
    const out = produced.get(id);
    if (isImportedDaemonSet(o.object)) {
      const key = id.slice(id.indexOf(' ') + 1);
      if (out === undefined) {
        objectProblems.push(`${id}: the generated app does not produce it`);
        continue;
      }
      daemonSets.push({
        daemonSet: key,
        changes: classifyDaemonSet(o.object, out, nodes),
        accessAdded: widenings(widen, key),
        accessRemoved: widenings(narrow, key),
      });
    } else if (isRbacObject(o.object) && (out === undefined || !jsonEqual(o.object, out))) rbac.push(o.object);
    else if (out === undefined) objectProblems.push(`${id}: the generated app does not produce it`);
    else if (!jsonEqual(o.object, out)) objectProblems.push(`${id}: the generated app produces it changed`);
  }
  const access = explainRbac(
    input.map((o) => o.object),
    output.map((o) => o.object),
    rbac,
  );
  objectProblems.push(...access.problems);
  const objectsAdded = [...produced.keys()].filter((k) => !wanted.has(k));
  const unexplained =
    objectProblems.length + daemonSets.reduce((n, d) => n + d.changes.filter((c) => c.class === DifferenceClass.UNEXPLAINED).length, 0);
  return { daemonSets, objectProblems, objectsAdded, accessReplaced: access.explained, unexplained };
}
