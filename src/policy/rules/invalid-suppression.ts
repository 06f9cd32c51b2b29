import { MIN_REASON_LENGTH } from '../host-access';
import { jsonPath } from '../helpers';
import { isValidReason, readSuppressions, SUPPRESSION_ANNOTATION_PREFIX } from '../suppression';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Suppression annotations must name a suppressible rule and give a reason. */
export const invalidSuppression = defineRule({
  id: 'invalid-suppression',
  severity: Severity.ERROR,
  category: RuleCategory.FIT,
  suppressible: false,
  configurable: false,
  title: 'Suppression annotation is invalid',
  rationale: `A suppression (${SUPPRESSION_ANNOTATION_PREFIX}<rule-id>: <reason>) is a reviewed exception: it must name a rule that exists and may be suppressed (API-validity rules never may: the API server would reject the object anyway), and give a reason of at least ${MIN_REASON_LENGTH} characters. An invalid suppression suppresses nothing.`,
  fix: `Correct the rule id, write a reason of at least ${MIN_REASON_LENGTH} characters, or fix the object instead of suppressing an API-validity rule.`,
  example: `metadata:\n  annotations:\n    ${SUPPRESSION_ANNOTATION_PREFIX}host-path-writable: "position database for tailed log files"`,
  check(_object, { view, ruleInfo }) {
    const out: RuleFinding[] = [];
    for (const s of readSuppressions(view.annotations)) {
      const info = ruleInfo(s.ruleId);
      if (!info) out.push({ path: jsonPath('metadata.annotations', s.key), message: `suppression names unknown rule '${s.ruleId}'` });
      else if (!info.suppressible) {
        out.push({
          path: jsonPath('metadata.annotations', s.key),
          message: `rule '${s.ruleId}' cannot be suppressed (the API server would reject the object, or the rule guards suppressions)`,
        });
      } else if (!isValidReason(s.reason)) {
        out.push({
          path: jsonPath('metadata.annotations', s.key),
          message: `suppression of '${s.ruleId}' has reason '${s.reason}', shorter than ${MIN_REASON_LENGTH} characters`,
        });
      }
    }
    return out;
  },
});
