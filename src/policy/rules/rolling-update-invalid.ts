import { intOrPercentError, isZeroIntOrPercent } from '../../k8s/intstr';
import { isObject, jsonPath, show } from '../helpers';
import { isKruiseDaemonSet } from '../kinds';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

const BASE = 'spec.updateStrategy';

/**
 * The update strategy: type RollingUpdate or OnDelete; for RollingUpdate, maxUnavailable and maxSurge must be
 * integers or percentages up to 100%, and exactly one of them non-zero after apps/v1 defaulting (maxUnavailable
 * defaults to 1, maxSurge to 0).
 */
export const rollingUpdateInvalid = defineRule({
  id: 'rolling-update-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Update strategy must be RollingUpdate or OnDelete with exactly one of maxUnavailable/maxSurge non-zero',
  rationale:
    'Defaulting comes first: a missing or empty type becomes RollingUpdate. apps/v1 then defaults maxUnavailable to 1 and maxSurge to 0, then requires exactly one of them to be non-zero: both zero is rejected ("cannot be 0 when maxSurge is 0"), both non-zero is rejected, so setting only maxSurge fails unless maxUnavailable: 0 is written. Values must be non-negative integers or percentages such as "10%" (at most 100%). OpenKruise Advanced DaemonSets have their own rollingUpdate fields (rollingUpdateType Standard, Surging or InPlaceIfPossible; partition, a non-negative integer; selector; paused) and allow surge with unavailability.',
  fix: 'Use either `maxUnavailable: 1` (or a percentage) with `maxSurge: 0`, or `maxSurge: 1` with an explicit `maxUnavailable: 0`.',
  example: 'spec:\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 10%\n      maxSurge: 0',
  check(_object, { view }) {
    const strategy = view.spec.updateStrategy;
    if (strategy === undefined || strategy === null) return [];
    if (!isObject(strategy)) return [{ path: BASE, message: `updateStrategy must be an object (has ${show(strategy)})` }];
    // Defaulting comes before validation: an empty or missing type becomes RollingUpdate.
    const type = strategy.type === undefined || strategy.type === null || strategy.type === '' ? 'RollingUpdate' : strategy.type;
    if (type === 'OnDelete') return [];
    if (type !== 'RollingUpdate') {
      return [{ path: jsonPath(BASE, 'type'), message: `updateStrategy.type ${show(type)} is not one of RollingUpdate, OnDelete` }];
    }
    const ru = strategy.rollingUpdate ?? {};
    if (!isObject(ru)) {
      return [{ path: jsonPath(BASE, 'rollingUpdate'), message: `rollingUpdate must be an object (has ${show(ru)})` }];
    }
    const out: RuleFinding[] = [];
    const kruise = isKruiseDaemonSet(view.object);
    if (kruise) out.push(...kruiseFields(ru));
    let syntaxOk = true;
    for (const field of ['maxUnavailable', 'maxSurge'] as const) {
      const v = ru[field];
      if (v === undefined || v === null) continue;
      const err = intOrPercentError(v);
      if (err) {
        syntaxOk = false;
        out.push({ path: jsonPath(BASE, 'rollingUpdate', field), message: `${field} ${show(v)} ${err}` });
      }
    }
    if (!syntaxOk || kruise) return out;
    const unavailableSet = ru.maxUnavailable !== undefined && ru.maxUnavailable !== null;
    const unavailable = unavailableSet ? ru.maxUnavailable : 1;
    const surge = ru.maxSurge;
    const hasUnavailable = !isZeroIntOrPercent(unavailable);
    const hasSurge = !isZeroIntOrPercent(surge);
    if (hasUnavailable && hasSurge) {
      out.push({
        path: jsonPath(BASE, 'rollingUpdate', unavailableSet ? 'maxUnavailable' : 'maxSurge'),
        message: unavailableSet
          ? `maxUnavailable ${show(unavailable)} and maxSurge ${show(surge)} are both non-zero; only one may be`
          : `maxSurge ${show(surge)} is set without maxUnavailable, which apps/v1 defaults to 1; both may not be non-zero (write maxUnavailable: 0)`,
      });
    } else if (!hasUnavailable && !hasSurge) {
      out.push({
        path: jsonPath(BASE, 'rollingUpdate', 'maxUnavailable'),
        message: `maxUnavailable ${show(unavailable)} and maxSurge ${show(surge ?? 0)} are both zero, so the rollout could never replace a pod`,
      });
    }
    return out;
  },
});

/** The rolling-update types of OpenKruise Advanced DaemonSets. */
const KRUISE_ROLLING_TYPES = ['Standard', 'Surging', 'InPlaceIfPossible'];

/** Checks the fields OpenKruise adds to `rollingUpdate`. */
function kruiseFields(ru: Record<string, any>): RuleFinding[] {
  const out: RuleFinding[] = [];
  const type = ru.rollingUpdateType;
  if (type !== undefined && type !== null && type !== '' && !KRUISE_ROLLING_TYPES.includes(type)) {
    out.push({
      path: jsonPath(BASE, 'rollingUpdate', 'rollingUpdateType'),
      message: `rollingUpdateType ${show(type)} is not one of ${KRUISE_ROLLING_TYPES.join(', ')}`,
    });
  }
  if (ru.partition !== undefined && ru.partition !== null && !(Number.isInteger(ru.partition) && ru.partition >= 0)) {
    out.push({
      path: jsonPath(BASE, 'rollingUpdate', 'partition'),
      message: `partition ${show(ru.partition)} is not a non-negative integer`,
    });
  }
  if (ru.paused !== undefined && ru.paused !== null && typeof ru.paused !== 'boolean') {
    out.push({ path: jsonPath(BASE, 'rollingUpdate', 'paused'), message: `paused ${show(ru.paused)} is not a boolean` });
  }
  return out;
}
