/**
 * The DaemonSet's annotations: the user's, the kind, and every suppression (given, or derived from a reason written in
 * code), each checked and recorded where reviewers see it.
 */

import { reasonError } from '../../k8s';
import { findRule, unknownRuleMessage } from '../../policy/config';
import { KIND_ANNOTATION, NodeServiceKind } from '../../policy/kinds';
import { suppressionAnnotationKey } from '../../policy/suppression';
import { ProblemCollector } from '../../k8s/problems';
import type { NodeServiceProps, RuleSuppression } from '../props';
import { Rollout } from '../rollout';
import { hostProcessReason } from './windows';

/** Reasons given in code become suppressions recorded on the object; every suppression is checked. */
export function resolveAnnotations(
  props: NodeServiceProps,
  kind: NodeServiceKind,
  rollout: Rollout,
  problems: ProblemCollector,
): { [key: string]: string } {
  const suppressions: RuleSuppression[] = [...(props.suppressions ?? []), ...derivedSuppressions(props, rollout)];
  const annotations: { [key: string]: string } = { ...(props.annotations ?? {}), [KIND_ANNOTATION]: kind };
  suppressions.forEach((s, i) => {
    checkSuppression(s, `suppressions[${i}]`, problems);
    const key = suppressionAnnotationKey(s.ruleId);
    annotations[key] = annotations[key] ? `${annotations[key]}; ${s.reason}` : s.reason;
  });
  return annotations;
}

/** The suppressions that reasons written in code stand for (writable host paths, privilege, unconfined seccomp, OnDelete). */
function derivedSuppressions(props: NodeServiceProps, rollout: Rollout): RuleSuppression[] {
  const all = [...props.containers, ...(props.initContainers ?? [])];
  const suppressions: RuleSuppression[] = [];
  const derived = (ruleId: string, reasons: string[]): void => {
    if (reasons.length > 0) suppressions.push({ ruleId, reason: [...new Set(reasons)].join('; ') });
  };
  derived(
    'host-path-writable',
    all
      .flatMap((c) => c.hostPaths ?? [])
      .filter((h) => h.isWritable && h.reason)
      .map((h) => `${h.path}: ${h.reason}`),
  );
  derived('privileged-container', [
    ...all.filter((c) => c.privileged && c.privilegedReason).map((c) => `${c.name}: ${c.privilegedReason}`),
    ...(props.windows?.reason ? [hostProcessReason(props.windows.reason)] : []),
  ]);
  derived(
    'seccomp-unconfined',
    all
      .filter((c) => c.seccompProfile?.type === 'Unconfined' && c.seccompProfile.reason)
      .map((c) => `${c.name}: ${c.seccompProfile!.reason}`),
  );
  if (rollout.type === 'OnDelete' && rollout.reason) suppressions.push({ ruleId: 'on-delete-without-reason', reason: rollout.reason });
  return suppressions;
}

/** Checks a suppression: a rule of the catalogue that may be suppressed, and a reason. */
function checkSuppression(s: RuleSuppression, field: string, problems: ProblemCollector): void {
  const rule = findRule(s.ruleId);
  if (!rule) problems.add(`${field}.ruleId`, s.ruleId, unknownRuleMessage(String(s.ruleId)), 'use a rule id from docs/rules.md');
  else if (!rule.suppressible)
    problems.add(
      `${field}.ruleId`,
      s.ruleId,
      'is an API-validity rule (the API server would reject the object), which cannot be suppressed',
      'fix the manifest instead',
    );
  problems.check(`${field}.reason`, s.reason, reasonError(s.reason), 'say why the finding is acceptable for this service');
}
