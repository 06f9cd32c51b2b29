/**
 * The canary steps of a rollout plan: the nodes to label wave by wave, the `kubectl label` commands and the rollback.
 */

import type { WireDaemonSet, WireNode, WirePod } from '../k8s/wire';
import { analyzeCoverage } from '../coverage/analyze';
import { CoverageStatus, NodeCoverage } from '../coverage/types';
import { CANARY_LABEL_ANNOTATION, CANARY_OF_ANNOTATION, nameOf } from './objects';
import { CanaryPlan } from './plan-types';

export function shellWord(word: string): string {
  return /^[A-Za-z0-9._/=:@+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** ` -l key=value,…` for the DaemonSet's `matchLabels`, or "" without them. */
export function selectorFlag(ds: WireDaemonSet): string {
  const labels = ds?.spec?.selector?.matchLabels;
  if (labels == null || typeof labels !== 'object' || Object.keys(labels).length === 0) return '';
  return ` -l ${shellWord(
    Object.entries(labels)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(','),
  )}`;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function canaryPlan(
  ds: WireDaemonSet,
  nodes: readonly WireNode[],
  pods: readonly WirePod[] | undefined,
  waveSize: number,
  notes: string[],
): CanaryPlan | undefined {
  const annotations = { ...(ds?.metadata?.annotations ?? {}), ...(ds?.spec?.template?.metadata?.annotations ?? {}) };
  const stable = annotations[CANARY_OF_ANNOTATION];
  const label = annotations[CANARY_LABEL_ANNOTATION];
  if (typeof stable !== 'string') return undefined;
  const m = typeof label === 'string' ? /^([^=]+)=(.*)$/.exec(label) : null;
  if (m === null) {
    notes.push(`canary of ${stable} without a ${CANARY_LABEL_ANNOTATION}: key=value annotation; no label commands`);
    return undefined;
  }
  const [, key, value] = m;
  const labelled = nodes.filter((n) => n?.metadata?.labels?.[key] === value).map(nameOf);
  const relabelled = nodes.map((n) => ({
    ...n,
    metadata: { ...(n?.metadata ?? {}), labels: { ...(n?.metadata?.labels ?? {}), [key]: value } },
  }));
  const rows = analyzeCoverage([ds], relabelled, pods).workloads[0]?.nodes ?? [];
  const wanted = new Set(rows.filter(isDesired).map((r) => r.node));
  const candidates = nodes.filter((n) => wanted.has(nameOf(n)) && n?.metadata?.labels?.[key] !== value);
  const waves = chunk(candidates, waveSize);
  const commands = waves.map((wave) => {
    const overwrite = wave.some((n) => typeof n?.metadata?.labels?.[key] === 'string') ? ' --overwrite' : '';
    return `kubectl label nodes ${wave.map((n) => shellWord(nameOf(n))).join(' ')} ${shellWord(`${key}=${value}`)}${overwrite}`;
  });
  const everyone = [...labelled, ...candidates.map(nameOf)];
  const rollback = everyone.length === 0 ? '' : `kubectl label nodes ${everyone.map(shellWord).join(' ')} ${shellWord(`${key}-`)}`;
  if (waves.length > 0) {
    notes.push(
      `labelling a node moves it from ${stable} to the canary at once: the stable pod is deleted (the node leaves its selector) ` +
        'outside any maxUnavailable budget, so each wave takes its nodes down together',
    );
  }
  return { stable, label: `${key}=${value}`, labelled, waves: waves.map((w) => w.map(nameOf)), commands, rollback };
}

/** Whether the DaemonSet controller creates the pod on the node (it may still not be placed or not run there). */
export function isDesired(row: NodeCoverage): boolean {
  return row.status !== CoverageStatus.EXCLUDED;
}
