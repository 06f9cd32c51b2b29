/**
 * Suppressions recorded on the object itself, as annotations a reviewer can see:
 * `ignore-check.node-services.cdk8s.io/<rule-id>: <reason>`.
 */

import { MIN_REASON_LENGTH } from './host-access';

import { SUPPRESSION_ANNOTATION_PREFIX } from '../k8s/vocabulary';

export { SUPPRESSION_ANNOTATION_PREFIX };

/**
 * The annotation key that suppresses `ruleId`.
 * A TypeScript convenience, kept: the same as `Suppressions.annotationKey`, the form for every jsii language.
 */
export function suppressionAnnotationKey(ruleId: string): string {
  return SUPPRESSION_ANNOTATION_PREFIX + ruleId;
}

/** One suppression annotation found on an object. */
export interface SuppressionEntry {
  /** The rule id after the prefix. */
  readonly ruleId: string;
  /** The annotation key. */
  readonly key: string;
  /** The written reason (the annotation value; empty when it is not a string). */
  readonly reason: string;
}

/** The suppression annotations of an object's annotation map. */
export function readSuppressions(annotations: { readonly [key: string]: unknown }): SuppressionEntry[] {
  const out: SuppressionEntry[] = [];
  for (const key of Object.keys(annotations)) {
    if (!key.startsWith(SUPPRESSION_ANNOTATION_PREFIX)) continue;
    const value = annotations[key];
    out.push({ ruleId: key.slice(SUPPRESSION_ANNOTATION_PREFIX.length), key, reason: typeof value === 'string' ? value : '' });
  }
  return out;
}

/** Whether a suppression reason is long enough to count (at least 10 characters, ignoring surrounding spaces). */
export function isValidReason(reason: unknown): boolean {
  return typeof reason === 'string' && reason.trim().length >= MIN_REASON_LENGTH;
}
