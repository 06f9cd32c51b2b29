/**
 * Proof that a canary split covers exactly the nodes of the unsplit DaemonSet: for every node, the number of split
 * DaemonSets the controller wants there must be 1 on each target node (where the base DaemonSet's controller verdict
 * is true) and 0 elsewhere. Only controller verdicts count (`desiredNumberScheduled`), not resources or ports.
 */

import { compileNode, compileWorkload } from './compile';
import { Check, controllerCheck } from './evaluate';
import { CanaryNodeCoverage, CanarySplitReport, CoverageOptions } from './types';

/**
 * Checks a canary split: `base` is the unsplit DaemonSet (or pod template), `splits` the DaemonSets (or templates)
 * that replace it, `nodes` the Node objects to check over (real or generated clusters).
 */
export function checkCanarySplit(
  base: unknown,
  splits: readonly unknown[],
  nodes: readonly unknown[],
  options?: CoverageOptions,
): CanarySplitReport {
  const baseWorkload = compileWorkload(base, options);
  const splitWorkloads = splits.map((s) => compileWorkload(s, options));
  const uncovered: string[] = [];
  const overlapping: string[] = [];
  const extra: string[] = [];
  const entries: CanaryNodeCoverage[] = nodes.map((raw) => {
    const n = compileNode(raw, undefined, options);
    const target = controllerCheck(baseWorkload, n) === Check.OK;
    const coveredBy: number[] = [];
    splitWorkloads.forEach((w, i) => {
      if (controllerCheck(w, n) === Check.OK) coveredBy.push(i);
    });
    if (target && coveredBy.length === 0) uncovered.push(n.name);
    if (coveredBy.length > 1) overlapping.push(n.name);
    if (!target && coveredBy.length > 0) extra.push(n.name);
    return { node: n.name, target, covered: coveredBy.length, coveredBy };
  });
  return {
    exact: uncovered.length === 0 && overlapping.length === 0 && extra.length === 0,
    nodes: entries,
    uncovered,
    overlapping,
    extra,
  };
}
