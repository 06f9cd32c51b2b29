/**
 * Recommended labels (`app.kubernetes.io/*`) and the stable selector built from them.
 */

import { MANAGED_BY, SERVICE_LABEL, TRACK_LABEL, VARIANT_LABEL } from '../k8s/vocabulary';

export { ANNOTATION_PREFIX, SERVICE_LABEL, TRACK_LABEL, VARIANT_LABEL } from '../k8s/vocabulary';

/** The parts of the recommended labels. */
export interface RecommendedLabelValues {
  /** `app.kubernetes.io/name`. */
  readonly name: string;
  /** `app.kubernetes.io/instance`. */
  readonly instance: string;
  /** `app.kubernetes.io/version`, when known. */
  readonly version?: string;
  /** `app.kubernetes.io/component`. */
  readonly component: string;
  /** `app.kubernetes.io/part-of`. */
  readonly partOf: string;
}

/** The six recommended labels (version only when known). */
export function recommendedLabels(v: RecommendedLabelValues): { [key: string]: string } {
  const labels: { [key: string]: string } = {
    'app.kubernetes.io/name': v.name,
    'app.kubernetes.io/instance': v.instance,
  };
  if (v.version) labels['app.kubernetes.io/version'] = v.version;
  labels['app.kubernetes.io/component'] = v.component;
  labels['app.kubernetes.io/part-of'] = v.partOf;
  labels['app.kubernetes.io/managed-by'] = MANAGED_BY;
  return labels;
}

/** The selector: only name + instance (never the version, never a path hash), because a DaemonSet selector is immutable. */
export function selectorLabels(name: string, instance: string): { [key: string]: string } {
  return { 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': instance };
}

/** The labels (outside the immutable selector) that group the DaemonSets of a service and tell them apart. */
export function trackLabels(instance: string, track: 'stable' | 'canary', variant?: string): { [key: string]: string } {
  return { [SERVICE_LABEL]: instance, [TRACK_LABEL]: track, ...(variant !== undefined ? { [VARIANT_LABEL]: variant } : {}) };
}
