/** Choosing the nodes a report lists, by node group (the nodes of a group have alike rows). */

import { NodeLayout } from '../coverage/analyze';

/** A group's nodes are not listed. */
export const PICK_NONE = 0;
/** Every node of a group is listed. */
export const PICK_ALL = 1;
/** Only the first node of a group is listed. */
export const PICK_FIRST = 2;

/**
 * The nodes of the groups `pick` chooses (every node of a group, only its first, or none), in node order. Costs the
 * number of groups plus the nodes picked (sorted), not the number of nodes.
 */
export function pickNodes(layout: NodeLayout, pick: (group: number) => number): Int32Array {
  const { first, size, members, start } = layout;
  const picks = new Uint8Array(first.length);
  let count = 0;
  for (let g = 0; g < first.length; g++) {
    picks[g] = pick(g);
    count += picks[g] === PICK_ALL ? size[g] : picks[g] === PICK_FIRST ? 1 : 0;
  }
  const out = new Int32Array(count);
  let at = 0;
  for (let g = 0; g < first.length; g++) {
    if (picks[g] === PICK_ALL) {
      out.set(members.subarray(start[g], start[g + 1]), at);
      at += size[g];
    } else if (picks[g] === PICK_FIRST) out[at++] = first[g];
  }
  return out.sort();
}
