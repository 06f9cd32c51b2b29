/**
 * The namespace label the admission guardrails key on. Kept apart from the constructs so that the pure admission
 * modules (and the lint rule that reads the policies) load without cdk8s.
 */

export { TRUST_LABEL_KEY } from '../k8s/vocabulary';

/** Value of {@link TRUST_LABEL_KEY} on a trusted namespace. Any other value (or no label) means untrusted. */
export const TRUST_LABEL_VALUE = 'true';
