/**
 * The namespace label the admission guardrails key on. Kept apart from the constructs so that the pure admission
 * modules (and the lint rule that reads the policies) load without cdk8s.
 */

/** Label that marks a namespace as trusted to run node services (host access under the platform's allowlists). */
export const TRUST_LABEL_KEY = 'node-services.cdk8s.io/trusted';

/** Value of {@link TRUST_LABEL_KEY} on a trusted namespace. Any other value (or no label) means untrusted. */
export const TRUST_LABEL_VALUE = 'true';
