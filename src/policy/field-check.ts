/**
 * The field walk of one object, shared by the rules that report from it (`unknown-field`, `field-type-invalid`):
 * the object is walked once per check, whichever of them asks first.
 */

import { checkFields, FieldCheck } from '../k8s/api-fields';
import type { RuleContext } from './types';

/** The walk of each object, by the context the engine built for it (one per object per check). */
const WALKS = new WeakMap<RuleContext, FieldCheck>();

/** The unknown fields and the values of the wrong type of `object`, for the target version of `context`. */
export function fieldCheckOf(object: unknown, context: RuleContext): FieldCheck {
  let walked = WALKS.get(context);
  if (walked === undefined) {
    walked = checkFields(object, { version: context.config.kubernetesVersion });
    WALKS.set(context, walked);
  }
  return walked;
}
