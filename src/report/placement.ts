/**
 * How the HTML reports tell a node a DaemonSet does not target (an intended absence: its nodeSelector or required
 * node affinity leaves the node out, like a GPU exporter on a CPU node) from a gap (a node it targets where its pod
 * cannot run: an untolerated taint, no room, a host port taken, a node that does not start it). Each has its colour,
 * its pattern (a gap is hatched) and its icon, so the two differ without colour too, and a legend says which is which.
 */

import { escapeHtml } from './html';
import { CoverageReason, CoverageStatus, NodeCoverage } from '../coverage/types';

/** Where a node stands for a DaemonSet. */
export enum Placement {
  /** The pod runs there. */
  RUNS = 'runs',
  /** The DaemonSet does not target the node (nodeSelector or required node affinity): an intended absence. */
  NOT_TARGETED = 'notTargeted',
  /** The DaemonSet targets the node, but its pod cannot run there: a gap. */
  GAP = 'gap',
}

/** The placement of one node's verdict: excluded by nodeSelector or node affinity is not targeted, any other miss a gap. */
export function placementOf(n: Pick<NodeCoverage, 'status' | 'reason'>): Placement {
  if (n.status === CoverageStatus.RUNNING) return Placement.RUNS;
  if (n.status === CoverageStatus.EXCLUDED && (n.reason === CoverageReason.NODE_SELECTOR || n.reason === CoverageReason.NODE_AFFINITY)) {
    return Placement.NOT_TARGETED;
  }
  return Placement.GAP;
}

/** The words, icon and CSS class of each placement (the icon is text, so it prints and shows without colour). */
export const PLACEMENT_LOOK: { readonly [p in Placement]: { readonly icon: string; readonly cls: string; readonly word: string } } = {
  [Placement.RUNS]: { icon: '✓', cls: 'p-runs', word: 'runs' },
  [Placement.NOT_TARGETED]: { icon: '–', cls: 'p-none', word: 'not targeted' },
  [Placement.GAP]: { icon: '✕', cls: 'p-gap', word: 'gap' },
};

/** A placement tag: its icon and word (`✕ gap`), with `extra` words after the word (`✕ gap: pending`). */
export function placementTag(p: Placement, extra = ''): string {
  const look = PLACEMENT_LOOK[p];
  return `<span class="tag ${look.cls}" data-placement="${p}"><span class="icon" aria-hidden="true">${look.icon}</span> ${escapeHtml(look.word + extra)}</span>`;
}

/**
 * The legend of the coverage matrix: one sample cell per look, with what it means. `invalid` is the look of a
 * DaemonSet the API server would reject (not analysed).
 */
export function coverageLegend(): string {
  const item = (cls: string, icon: string, word: string, text: string) =>
    `<li><span class="cell ${cls}"><span class="verdict"><span class="icon" aria-hidden="true">${icon}</span> ${word}</span></span> ${text}</li>`;
  return (
    '<ul class="legend" aria-label="Legend of the coverage matrix">' +
    item(
      'p-runs',
      PLACEMENT_LOOK.runs.icon,
      'covered',
      'the pod runs on every node of the pool the DaemonSet targets (“covered where targeted”: it does not target some of them).',
    ) +
    item(
      'p-none',
      PLACEMENT_LOOK.notTargeted.icon,
      'not targeted',
      'an intended absence: the nodeSelector or node affinity leaves these nodes out (a GPU exporter on CPU nodes).',
    ) +
    item(
      'p-gap',
      PLACEMENT_LOOK.gap.icon,
      'gap',
      'a node the DaemonSet targets where its pod cannot run: a taint it does not tolerate, no room, a host port in use, a node that does not start it.',
    ) +
    item('p-gap', '!', 'invalid', 'the API server would reject the DaemonSet; it is not analysed.') +
    '</ul>\n'
  );
}

/** The legend of the rollout plan: waves, a deadlock, and new pods that cannot be placed. */
export function planLegend(): string {
  return (
    '<ul class="legend" aria-label="Legend of the rollout plan">' +
    '<li><span class="wave legend-wave"><strong>wave</strong></span> the nodes whose pod is replaced in one step.</li>' +
    '<li><span class="wave stuck legend-wave"><span class="icon" aria-hidden="true">✕</span> <strong>deadlock</strong></span> the rollout cannot progress: the nodes named hold the unavailable budget.</li>' +
    `<li>${placementTag(Placement.GAP)} a node the DaemonSet targets where the new pod cannot be placed (a gap the rollout opens or keeps). ` +
    'Nodes the DaemonSet does not target (nodeSelector, node affinity) are not part of its rollout and are not shown.</li>' +
    '</ul>\n'
  );
}
