import { MIN_REASON_LENGTH, ON_DELETE_REASON_ANNOTATION } from '../host-access';
import { asObject } from '../helpers';
import { defineRule, RuleCategory, Severity } from '../types';

/** `OnDelete` updates need a written reason. */
export const onDeleteWithoutReason = defineRule({
  id: 'on-delete-without-reason',
  severity: Severity.WARNING,
  category: RuleCategory.RELIABILITY,
  title: 'OnDelete update strategy without a reason',
  rationale: `With OnDelete a changed template reaches a node only when someone deletes the old pod, so nodes drift apart silently. It is right for agents whose restart disrupts the node (GPU drivers, some CNIs), and then the reason should be written down in the ${ON_DELETE_REASON_ANNOTATION} annotation (at least ${MIN_REASON_LENGTH} characters).`,
  fix: `Use RollingUpdate, or add the annotation ${ON_DELETE_REASON_ANNOTATION} explaining why pods are replaced by hand.`,
  example: `metadata:\n  annotations:\n    ${ON_DELETE_REASON_ANNOTATION}: "driver reload drains GPU jobs; nodes are rotated by the GPU maintenance runbook"\nspec:\n  updateStrategy: {type: OnDelete}`,
  check(_object, { view }) {
    if (asObject(view.spec.updateStrategy).type !== 'OnDelete') return [];
    const reason = view.annotations[ON_DELETE_REASON_ANNOTATION];
    if (typeof reason === 'string' && reason.trim().length >= MIN_REASON_LENGTH) return [];
    return [
      {
        path: 'spec.updateStrategy.type',
        message:
          typeof reason === 'string'
            ? `updateStrategy is OnDelete and the reason '${reason}' is shorter than ${MIN_REASON_LENGTH} characters`
            : `updateStrategy is OnDelete without a ${ON_DELETE_REASON_ANNOTATION} annotation`,
      },
    ];
  },
});
