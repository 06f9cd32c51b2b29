/**
 * The project's own vocabulary: every label and annotation key this library writes or reads, defined once.
 *
 * The constructs write these keys, and `diff`, `plan`, `coverage`, `lint` and `import` read them back, so each key
 * is a literal here only and every other module imports it.
 */

/** The label and annotation prefix owned by this library. */
export const ANNOTATION_PREFIX = 'node-services.cdk8s.io';

/** The `app.kubernetes.io/managed-by` value on every object this library emits. */
export const MANAGED_BY = 'cdk8s-node-services';

/** Label on every DaemonSet of a service and its pods: the service's instance, shared by the stable and canary tracks. */
export const SERVICE_LABEL = `${ANNOTATION_PREFIX}/service`;

/** Label on every DaemonSet of a service and its pods that tells them apart: `stable` or `canary`. */
export const TRACK_LABEL = `${ANNOTATION_PREFIX}/track`;

/** Label on the DaemonSets of a variant and their pods: the variant's name (absent on the default DaemonSets). */
export const VARIANT_LABEL = `${ANNOTATION_PREFIX}/variant`;

/** Annotation on a canary DaemonSet: the name of the stable DaemonSet it splits. */
export const CANARY_OF_ANNOTATION = `${ANNOTATION_PREFIX}/canary-of`;

/** Annotation on a canary DaemonSet: the node label (`key=value`) that selects its canary nodes. */
export const CANARY_LABEL_ANNOTATION = `${ANNOTATION_PREFIX}/canary-label`;

/** Annotation on a variant's DaemonSets: the name of the service the variant belongs to. */
export const VARIANT_OF_ANNOTATION = `${ANNOTATION_PREFIX}/variant-of`;

/** Pod-template annotation: a hash of the content of the ConfigMaps and Secrets the pods mount. */
export const CONFIG_HASH_ANNOTATION = `${ANNOTATION_PREFIX}/config-hash`;

/** Annotation declaring the kind of node service a DaemonSet is (`log-agent`, `cni-plugin`, …). */
export const KIND_ANNOTATION = `${ANNOTATION_PREFIX}/kind`;

/** Annotation recording why a DaemonSet uses the `OnDelete` update strategy. */
export const ON_DELETE_REASON_ANNOTATION = `${ANNOTATION_PREFIX}/on-delete-reason`;

/** Annotation on a guardrail policy: the settings it was rendered from, so `lint` can recognise it. */
export const GUARDRAIL_SETTINGS_ANNOTATION = `${ANNOTATION_PREFIX}/guardrail-settings`;

/** Namespace label that marks a namespace trusted to run node services with host access. */
export const TRUST_LABEL_KEY = `${ANNOTATION_PREFIX}/trusted`;

/** Prefix of the annotations that suppress a rule on one object: `ignore-check.node-services.cdk8s.io/<rule-id>`. */
export const SUPPRESSION_ANNOTATION_PREFIX = `ignore-check.${ANNOTATION_PREFIX}/`;

/** Annotation on an object the guardrails emit for a reason a reader may not guess: why it exists. */
export const PURPOSE_ANNOTATION = `${ANNOTATION_PREFIX}/purpose`;

/** Annotation on each admission policy the guardrails emit: what it enforces, in one sentence. */
export const DESCRIPTION_ANNOTATION = `${ANNOTATION_PREFIX}/description`;

/** Label on the GitOps objects of a fleet: the cluster an object deploys to. */
export const FLEET_CLUSTER_LABEL = `${ANNOTATION_PREFIX}/cluster`;

/** Label on the GitOps objects of a fleet: the rollout wave of the cluster. */
export const FLEET_WAVE_LABEL = `${ANNOTATION_PREFIX}/wave`;
