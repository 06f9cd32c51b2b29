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

/**
 * The rules whose suppressions a node service derives from reasons written in code (a writable host path's reason,
 * `privilegedReason` or the Windows reason, an unconfined seccomp profile's reason, an `OnDelete` rollout's reason);
 * a suppression given for one of them is merged with the derived one.
 */
export const DERIVED_SUPPRESSIONS = {
  HOST_PATH_WRITABLE: 'host-path-writable',
  PRIVILEGED: 'privileged-container',
  SECCOMP_UNCONFINED: 'seccomp-unconfined',
  ON_DELETE: 'on-delete-without-reason',
} as const;

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
