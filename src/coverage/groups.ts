/**
 * The DaemonSets of a coverage report that share one service's nodes, for the text report: the DaemonSets of one node
 * service (its service label: stable, canary, variants), a canary DaemonSet (its canary-of annotation) with the one it
 * splits, and DaemonSets of one namespace whose pod templates carry the same `app.kubernetes.io/name` (variants of one
 * service, e.g. per OS).
 */

import { daemonSetsByName } from './daemon-sets';
import { CoverageReport, WorkloadCoverage, WorkloadStatus } from './types';
import { CANARY_OF_ANNOTATION, SERVICE_LABEL } from '../k8s/vocabulary';

/** DaemonSets reported together: one alone (`kind` empty), a `canary pair` or `variants`. */
export interface WorkloadGroup {
  /** The group's DaemonSets, in report order. */
  readonly members: WorkloadCoverage[];
  /** `canary pair`, `variants`, or empty for a DaemonSet alone. */
  readonly kind: string;
}

const CANARY = 'canary ';

/** The key of the group a DaemonSet belongs to, or undefined when it belongs to none. */
function groupKeyOf(objects: ReadonlyMap<string, any>): (w: WorkloadCoverage) => string | undefined {
  return (w) => {
    if (w.status === WorkloadStatus.INVALID) return undefined;
    const o = objects.get(`${w.namespace}/${w.name}`);
    // Every DaemonSet of one node service (stable, canary, variants and their canaries) carries its service label.
    const service = o?.spec?.template?.metadata?.labels?.[SERVICE_LABEL];
    if (typeof service === 'string') return `service ${w.namespace}/${service}`;
    const canaryOf = o?.metadata?.annotations?.[CANARY_OF_ANNOTATION];
    if (typeof canaryOf === 'string') return `${CANARY}${w.namespace}/${canaryOf}`;
    const app = o?.spec?.template?.metadata?.labels?.['app.kubernetes.io/name'];
    return typeof app === 'string' ? `app ${w.namespace}/${app}` : undefined;
  };
}

/** The report's DaemonSets by group key (a canary's base joins the canary's group), and each one's key. */
function membersByKey(
  workloads: readonly WorkloadCoverage[],
  groupKey: (w: WorkloadCoverage) => string | undefined,
): { byKey: Map<string, WorkloadCoverage[]>; keyOf: Map<WorkloadCoverage, string> } {
  // A canary's base joins the canary's group: index the bases by their own name.
  const canaryBases = new Set<string>();
  for (const w of workloads) {
    const k = groupKey(w);
    if (k?.startsWith(CANARY)) canaryBases.add(k.slice(CANARY.length));
  }
  const byKey = new Map<string, WorkloadCoverage[]>();
  const keyOf = new Map<WorkloadCoverage, string>();
  for (const w of workloads) {
    let k = groupKey(w);
    if (canaryBases.has(`${w.namespace}/${w.name}`)) k = `${CANARY}${w.namespace}/${w.name}`;
    if (k === undefined) continue;
    keyOf.set(w, k);
    let list = byKey.get(k);
    if (!list) byKey.set(k, (list = []));
    list.push(w);
  }
  return { byKey, keyOf };
}

/** Groups the analysed workloads of `report` (see the file comment); each group is listed at its first member. */
export function workloadGroups(report: CoverageReport, manifests: readonly any[]): WorkloadGroup[] {
  const objects = daemonSetsByName(manifests);
  const { byKey, keyOf } = membersByKey(report.workloads, groupKeyOf(objects));
  const groups: WorkloadGroup[] = [];
  const listed = new Set<string>();
  for (const w of report.workloads) {
    const k = keyOf.get(w);
    const members = k !== undefined ? byKey.get(k)! : [w];
    if (members.length < 2) {
      groups.push({ members: [w], kind: '' });
      continue;
    }
    if (listed.has(k!)) continue;
    listed.add(k!);
    const canaries = members.filter(
      (m) => objects.get(`${m.namespace}/${m.name}`)?.metadata?.annotations?.[CANARY_OF_ANNOTATION] !== undefined,
    );
    const pair = k!.startsWith(CANARY) || (members.length === 2 && canaries.length === 1);
    groups.push({ members, kind: pair ? 'canary pair' : 'variants' });
  }
  return groups;
}
