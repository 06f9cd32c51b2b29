/**
 * Metadata: the name, namespace, recommended labels and selector of a service, and the user's labels and annotations,
 * checked (the labels the service sets itself cannot be given).
 */

import { dns1123LabelError, labelValueError, parseImage } from '../../k8s';
import { NodeServiceKind } from '../../policy/kinds';
import { ProblemCollector } from '../../k8s/problems';
import { recommendedLabels, selectorLabels, SERVICE_LABEL, TRACK_LABEL, VARIANT_LABEL } from '../labels';
import type { NodeServiceProps } from '../props';
import { checkAnnotations, checkLabels } from './maps';
import { DEFAULT_NAMESPACE, defaultNamespaceProblem } from '../../k8s/namespaces';

export { DEFAULT_NAMESPACE };

/** Label keys the service sets itself; user labels may not override them. */
const OWN_LABEL_PREFIX = 'app.kubernetes.io/';

/** The names and labels of a service, resolved. */
export interface MetadataIntent {
  readonly namespace: string;
  readonly instance: string;
  readonly component: string;
  readonly partOf: string;
  readonly labels: { [key: string]: string };
  readonly selector: { [key: string]: string };
}

/** Resolves names, namespace and labels. */
export function resolveMetadata(
  props: NodeServiceProps,
  kind: NodeServiceKind,
  chartNamespace: string | undefined,
  problems: ProblemCollector,
): MetadataIntent {
  problems.check('name', props.name, dns1123LabelError(props.name), 'use a short lower-case name such as "fluent-bit"');
  const namespace = resolveNamespace(props, chartNamespace, problems);
  const instance = props.instance ?? props.name;
  const version = props.version ?? imageVersion(props.containers[0]?.image);
  const component = props.component ?? kind;
  const partOf = props.partOf ?? 'node-services';
  for (const [field, value] of [
    ['instance', props.instance],
    ['version', props.version],
    ['component', props.component],
    ['partOf', props.partOf],
  ] as const) {
    if (value !== undefined)
      problems.check(field, value, labelValueError(value), 'use a valid label value (at most 63 characters of [A-Za-z0-9-_.])');
  }
  checkLabels('labels', props.labels, problems);
  checkOwnLabels(props, problems);
  checkAnnotations('annotations', props.annotations, problems);
  checkAnnotations('podAnnotations', props.podAnnotations, problems);
  const labels = { ...(props.labels ?? {}), ...recommendedLabels({ name: props.name, instance, version, component, partOf }) };
  return { namespace, instance, component, partOf, labels, selector: selectorLabels(props.name, instance) };
}

/** The namespace: the props', else the chart's, else the default; never `default`. */
function resolveNamespace(props: NodeServiceProps, chartNamespace: string | undefined, problems: ProblemCollector): string {
  const namespace = props.namespace ?? chartNamespace ?? DEFAULT_NAMESPACE;
  problems.check('namespace', namespace, dns1123LabelError(namespace), 'use a DNS-1123 label such as "node-services"');
  const reserved = defaultNamespaceProblem(namespace);
  if (reserved) problems.add('namespace', namespace, reserved.problem, reserved.fix);
  return namespace;
}

/** Refuses user labels the service sets itself: the recommended labels and the ones that group its DaemonSets. */
function checkOwnLabels(props: NodeServiceProps, problems: ProblemCollector): void {
  for (const key of Object.keys(props.labels ?? {})) {
    if (key.startsWith(OWN_LABEL_PREFIX)) {
      problems.add(
        `labels["${key}"]`,
        props.labels![key],
        `is set by the service itself (${OWN_LABEL_PREFIX}* labels come from name, instance, version, component and partOf)`,
        'use the matching prop, or a label key of your own',
      );
    }
  }
  for (const key of [SERVICE_LABEL, TRACK_LABEL, VARIANT_LABEL]) {
    if (props.labels?.[key] !== undefined)
      problems.add(
        `labels["${key}"]`,
        props.labels[key],
        'is set by the service itself (it groups the DaemonSets of the service)',
        'use a label key of your own',
      );
  }
}

/** The version of the first container's image (its tag), when it is a valid label value. */
export function imageVersion(image: string | undefined): string | undefined {
  const parsed = image ? parseImage(image) : undefined;
  const tag = parsed?.tag;
  return tag && !labelValueError(tag) ? tag : undefined;
}
