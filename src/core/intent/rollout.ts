/**
 * Rollout: the update strategy (checked against the factory that made each amount and against the kind: some kinds
 * must never surge), the seconds a new pod must be ready, the revisions kept.
 */

import { k8s } from 'cdk8s-plus-28';
import { int32Error, intOrPercentError, isZeroIntOrPercent, reasonError } from '../../k8s';
import { NEVER_SURGE, NodeServiceKind } from '../../policy/kinds';
import { ProblemCollector } from '../../k8s/problems';
import type { NodeServiceProps } from '../props';
import { IntOrPercent, Rollout } from '../rollout';
import { Wire } from '../wire';

/** The rollout of the service's DaemonSets, resolved. */
export interface RolloutIntent {
  readonly rollout: Rollout;
  readonly updateStrategy: Wire<k8s.DaemonSetUpdateStrategy>;
  readonly minReadySeconds: number;
  readonly revisionHistoryLimit: number;
}

/** Resolves the rollout options: the update strategy (which the kind may forbid to surge) and the counts. */
export function resolveRolloutOptions(props: NodeServiceProps, kind: NodeServiceKind, problems: ProblemCollector): RolloutIntent {
  const rollout = props.rollout ?? Rollout.maxUnavailable(1);
  const updateStrategy = resolveRollout(rollout, problems);
  checkNeverSurge(rollout, kind, problems);
  const minReadySeconds = props.minReadySeconds ?? 0;
  const revisionHistoryLimit = props.revisionHistoryLimit ?? 10;
  problems.check('minReadySeconds', minReadySeconds, int32Error(minReadySeconds), 'use whole seconds from 0 to 2147483647');
  problems.check('revisionHistoryLimit', revisionHistoryLimit, int32Error(revisionHistoryLimit), 'use a count from 0 to 2147483647');
  return { rollout, updateStrategy, minReadySeconds, revisionHistoryLimit };
}

/** Refuses a surge for the kinds that must never surge (the table says why). */
function checkNeverSurge(rollout: Rollout, kind: NodeServiceKind, problems: ProblemCollector): void {
  if (
    NEVER_SURGE[kind] &&
    rollout.type === 'RollingUpdate' &&
    !isZeroIntOrPercent(rollout.maxSurgeAmount?._toKubernetes() as number | string | undefined)
  ) {
    problems.add(
      'rollout',
      { maxSurge: rollout.maxSurgeAmount?._toKubernetes() },
      NEVER_SURGE[kind],
      'use Rollout.maxUnavailable(1), or Rollout.onDelete(reason) if you roll nodes yourself',
    );
  }
}

/** Resolves the update strategy. */
function resolveRollout(rollout: Rollout, problems: ProblemCollector): Wire<k8s.DaemonSetUpdateStrategy> {
  if (rollout.type === 'OnDelete') {
    problems.check(
      'rollout',
      rollout.reason,
      reasonError(rollout.reason),
      'say who replaces the pods and when, e.g. Rollout.onDelete("drained and replaced during node maintenance")',
    );
    return { type: 'OnDelete' };
  }
  const mu = checkAmount('rollout.maxUnavailable', 'maxUnavailable', rollout.maxUnavailableAmount, problems);
  const ms = checkAmount('rollout.maxSurge', 'surge', rollout.maxSurgeAmount, problems);
  if (mu === undefined || ms === undefined) return { type: 'RollingUpdate' };
  if (isZeroIntOrPercent(mu) && isZeroIntOrPercent(ms)) {
    problems.add(
      'rollout',
      { maxUnavailable: mu, maxSurge: ms },
      'maxUnavailable and maxSurge cannot both be zero (the rollout could never progress)',
      'use Rollout.maxUnavailable(1) or Rollout.surge(1)',
    );
  }
  return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: mu, maxSurge: ms } };
}

/**
 * Checks one int-or-percent amount of a rolling update against the factory that made it (`Rollout.maxUnavailable`
 * takes a count, `Rollout.maxUnavailablePercent` a percentage) and the DaemonSet grammar; returns its manifest value,
 * or undefined when it is wrong (the problem is recorded).
 */
function checkAmount(
  field: string,
  factory: 'maxUnavailable' | 'surge',
  amount: IntOrPercent | undefined,
  problems: ProblemCollector,
): number | string | undefined {
  if (amount === undefined) return 0;
  const percentFactory = factory === 'surge' ? 'Rollout.surgePercent' : 'Rollout.maxUnavailablePercent';
  const countFactory = `Rollout.${factory}`;
  if (typeof amount.value !== 'number') {
    problems.add(
      field,
      amount.value,
      amount.isPercent ? 'must be a number (the percentage without %)' : 'must be a number (a count of pods)',
      amount.isPercent
        ? `use ${percentFactory}(10) for 10%`
        : `use ${countFactory}(1) for a count, or ${percentFactory}(10) for a percentage`,
    );
    return undefined;
  }
  const value = amount._toKubernetes() as number | string;
  const error = intOrPercentError(value);
  if (error === undefined) return value;
  const message = !amount.isPercent
    ? 'must be a non-negative integer'
    : amount.value > 100
      ? error
      : 'must be a whole percentage from 0 to 100';
  problems.add(field, amount.value, message, amount.isPercent ? `use ${percentFactory}(10) for 10%` : `use ${countFactory}(1)`);
  return undefined;
}
