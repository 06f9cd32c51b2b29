/**
 * Placement: the pools to cover and to avoid (checked), the tolerations their taints need, the required affinity.
 */

import { labelValueError, qualifiedNameError, quantityError } from '../../k8s';
import { ProblemCollector } from '../../k8s/problems';
import { checkPoolBudget } from '../node-budget';
import { NodePool } from '../node-pool';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from '../placement';
import type { NodeServiceProps } from '../props';
import { checkLabels } from './maps';

/** Resolves tolerations and affinity from the placement options and the pools. */
export function resolvePlacement(props: NodeServiceProps, problems: ProblemCollector) {
  const pools = [...(props.pools ?? [])];
  const excludePools = [...(props.excludePools ?? [])];
  checkPools('pools', pools, problems);
  checkPools('excludePools', excludePools, problems);
  const given = props.tolerations ?? [];
  const tolerations = [...given, ...poolTolerations(pools).filter((t) => !given.some((g) => covers(g, t)))];
  if (props.controlPlane) tolerations.push(Toleration.controlPlane());
  const baseTerms = props.nodeAffinity ?? poolAffinity(pools);
  const affinityTerms = (props.nodeRequirements ?? []).reduce((terms, r) => andIntoEvery(terms, r), baseTerms);
  // A requirement of `nodeRequirements` is ANDed into every term: its problems are the user's `nodeRequirements[k]`.
  const requirementFields = new Map<NodeRequirement, string>((props.nodeRequirements ?? []).map((r, k) => [r, `nodeRequirements[${k}]`]));
  return { pools, excludePools, tolerations, affinityTerms, requirementFields };
}

function checkPools(field: string, pools: NodePool[], problems: ProblemCollector): void {
  pools.forEach((pool, i) => {
    checkLabels(`${field}[${i}].labels`, pool.labels, problems);
    for (const [name, value] of Object.entries(pool.allocatable ?? {})) {
      problems.check(`${field}[${i}].allocatable["${name}"]`, value, quantityError(value), "use a quantity such as '16Gi' or '8'");
    }
    pool.taints.forEach((t, j) => {
      problems.check(`${field}[${i}].taints[${j}].key`, t.key, qualifiedNameError(t.key), 'use a taint key such as "nvidia.com/gpu"');
      if (t.value !== undefined)
        problems.check(`${field}[${i}].taints[${j}].value`, t.value, labelValueError(t.value), 'use a valid label value');
    });
    checkPoolBudget(`${field}[${i}]`, pool.budget, pool.allocatable, problems);
  });
}

/** The tolerations that pools' scheduling-relevant taints need (PreferNoSchedule never keeps a daemon pod off). */
function poolTolerations(pools: NodePool[]): Toleration[] {
  return pools.flatMap((pool) =>
    pool.taints
      .filter((t) => t.effect !== TaintEffect.PREFER_NO_SCHEDULE)
      .map((t) =>
        t.value !== undefined ? Toleration.equal(t.key, t.value, { effect: t.effect }) : Toleration.exists(t.key, { effect: t.effect }),
      ),
  );
}

/** Whether toleration `a` tolerates every taint that toleration `b` tolerates. */
function covers(a: Toleration, b: Toleration): boolean {
  if (a.effect !== undefined && a.effect !== b.effect) return false;
  if ((a.key === undefined || a.key === '') && a.operator === 'Exists') return true;
  if (a.key !== b.key) return false;
  if (a.operator === 'Exists') return true;
  return b.operator === 'Equal' && a.value === b.value;
}

/** One affinity term per pool (any pool qualifies); none when a pool stands for every node. */
function poolAffinity(pools: NodePool[]): NodeAffinityTerm[] {
  if (pools.length === 0 || pools.some((p) => Object.keys(p.labels).length === 0)) return [];
  return pools.map((p) => ({
    requirements: Object.entries(p.labels)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => NodeRequirement.in(k, [v])),
  }));
}

/** ANDs `requirement` into every term as given (the user's own terms are rendered as written). */
function andIntoEvery(terms: NodeAffinityTerm[], requirement: NodeRequirement): NodeAffinityTerm[] {
  if (terms.length === 0) return [{ requirements: [requirement] }];
  return terms.map((t) => ({ requirements: [...t.requirements, requirement] }));
}
