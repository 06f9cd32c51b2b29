/**
 * The props of `NodeServiceAlerts` checked and resolved into the plain PrometheusRule and PodMonitor manifests the
 * construct emits: every problem lands in the collector. No cdk8s: the construct only wraps the manifests in API
 * objects and checks them against the App at synth.
 */

import type { NodeServiceAlertsProps, NodeServiceAlertTarget, NodeServiceMetricsEndpoint } from './coverage-alerts';
import type { MonitoredService } from './self-check';
import { ProblemCollector } from '../k8s/problems';
import { checkShape } from '../k8s/shape';
import { recommendedLabels } from '../core/labels';
import { checkLabels } from '../core/intent/maps';
import { dns1123LabelError, dns1123SubdomainError, labelValueError, portNameError } from '../k8s';
import {
  AlertSettings,
  DEFAULT_KUBE_STATE_METRICS_SELECTOR,
  labelMatchersError,
  NODE_SERVICE_KINDS,
  RuleGroup,
  serviceRuleGroup,
  ServiceAlertInput,
} from './alert-rules';
import { alertsPropsShape } from './shapes';

/** How PrometheusRule objects are laid out. */
export enum AlertRuleLayout {
  /** One PrometheusRule per node service (`<service>-alerts`), one rule group in it. */
  PER_SERVICE = 'per-service',
  /** One PrometheusRule per namespace (`node-service-alerts`), one rule group per service in it. */
  PER_NAMESPACE = 'per-namespace',
}

const DURATION = /^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$/;

/** One object to emit: its construct id and its manifest. @internal */
export interface AlertObject {
  readonly id: string;
  readonly manifest: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly metadata: { readonly name: string; readonly namespace: string; readonly labels: { [key: string]: string } };
    readonly spec: object;
  };
}

/** The alerts as the construct emits them. @internal */
export interface ResolvedAlerts {
  /** What the synth-time check compares with the App's DaemonSets. */
  readonly monitored: MonitoredService[];
  /** The PrometheusRule objects. */
  readonly rules: AlertObject[];
  /** The PodMonitor objects (services with `metrics`). */
  readonly podMonitors: AlertObject[];
}

/** Checks `props` into `problems`; the resolved alerts are undefined when a problem was recorded. @internal */
export function resolveAlerts(given: NodeServiceAlertsProps, problems: ProblemCollector): ResolvedAlerts | undefined {
  // Props that are not an object are one problem (the rest is muted); every other prop is checked even without services.
  let props = checkShape<NodeServiceAlertsProps>(given, alertsPropsShape(), problems, 'NodeServiceAlerts');
  if (!Array.isArray(props.services) || props.services.length === 0) {
    problems.add(
      'services',
      props.services,
      'at least one node service is required',
      'pass services: [{ name: "fluent-bit", namespace: "node-services", kind: "log-agent" }]',
    );
    props = { ...props, services: [] };
  }
  const layout = props.layout ?? AlertRuleLayout.PER_SERVICE;
  if (!Object.values(AlertRuleLayout).includes(layout)) {
    problems.add('layout', layout, 'is not a layout', 'use AlertRuleLayout.PER_SERVICE or PER_NAMESPACE');
  }
  const ksm = props.kubeStateMetricsSelector ?? DEFAULT_KUBE_STATE_METRICS_SELECTOR;
  problems.check(
    'kubeStateMetricsSelector',
    ksm,
    labelMatchersError(ksm),
    'use label matchers such as job="kube-state-metrics", cluster="prod"',
  );
  const team = props.team ?? 'platform';
  problems.check('team', team, labelValueError(team), 'use a short team name such as "platform"');
  if (props.ruleNamespace !== undefined) {
    problems.check(
      'ruleNamespace',
      props.ruleNamespace,
      dns1123LabelError(props.ruleNamespace),
      'use a namespace name such as "monitoring"',
    );
  }
  checkLabels('ruleLabels', props.ruleLabels, problems);
  if (props.runbookBaseUrl !== undefined && !/^https?:\/\/\S+$/.test(props.runbookBaseUrl)) {
    problems.add('runbookBaseUrl', props.runbookBaseUrl, 'is not an http(s) URL', 'use e.g. "https://runbooks.example.com/node-services"');
  }
  const partOf = props.partOf ?? 'node-services';
  problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value such as "node-services"');
  const seen = new Set<string>();
  props.services.forEach((s, i) => checkTarget(s, `services[${i}]`, seen, problems));
  if (layout === AlertRuleLayout.PER_SERVICE && props.ruleNamespace !== undefined) checkRuleNames(props, problems);
  if (!problems.empty) return undefined;
  const settings: AlertSettings = { kubeStateMetricsSelector: ksm.trim(), runbookBaseUrl: props.runbookBaseUrl };
  return {
    monitored: props.services.map((s, i) => monitoredService(s, `services[${i}]`)),
    rules: ruleObjects(props, layout, team, partOf, settings),
    podMonitors: podMonitorObjects(props, partOf),
  };
}

/** Checks one alert target. */
function checkTarget(s: NodeServiceAlertTarget, f: string, seen: Set<string>, problems: ProblemCollector): void {
  problems.check(`${f}.name`, s.name, dns1123SubdomainError(s.name), 'use the DaemonSet name, e.g. "fluent-bit"');
  problems.check(`${f}.namespace`, s.namespace, dns1123LabelError(s.namespace), 'use the DaemonSet namespace, e.g. "node-services"');
  if (!NODE_SERVICE_KINDS.includes(s.kind)) {
    problems.add(`${f}.kind`, s.kind, 'is not a node-service kind', `use one of ${NODE_SERVICE_KINDS.join(', ')}`);
  }
  if (s.team !== undefined) problems.check(`${f}.team`, s.team, labelValueError(s.team), 'use a short team name such as "observability"');
  checkLabels(`${f}.selector`, s.selector, problems);
  checkLabels(`${f}.podSelector`, s.podSelector, problems);
  if (s.daemonSetNames !== undefined) {
    if (s.daemonSetNames.length === 0)
      problems.add(`${f}.daemonSetNames`, s.daemonSetNames, 'must name at least one DaemonSet', `leave it unset for ["${s.name}"]`);
    s.daemonSetNames.forEach((n, j) =>
      problems.check(`${f}.daemonSetNames[${j}]`, n, dns1123SubdomainError(n), 'use a DaemonSet name, e.g. "fluent-bit-canary"'),
    );
  }
  if (s.metrics) checkMetrics(s, s.metrics, f, problems);
  const key = `${s.namespace}/${s.name}`;
  if (seen.has(key)) problems.add(`${f}`, key, 'is listed twice', 'list each DaemonSet once');
  seen.add(key);
}

/** Checks the metrics endpoint of one target, which needs a pod selector. */
function checkMetrics(s: NodeServiceAlertTarget, metrics: NodeServiceMetricsEndpoint, f: string, problems: ProblemCollector): void {
  problems.check(
    `${f}.metrics.port`,
    metrics.port,
    portNameError(metrics.port),
    'use the name of the container port that serves metrics, e.g. "metrics"',
  );
  if (metrics.path !== undefined && (typeof metrics.path !== 'string' || !metrics.path.startsWith('/'))) {
    problems.add(`${f}.metrics.path`, metrics.path, 'must be an absolute HTTP path', 'use e.g. "/metrics"');
  }
  if (metrics.interval !== undefined && !(DURATION.test(metrics.interval) && metrics.interval !== '')) {
    problems.add(`${f}.metrics.interval`, metrics.interval, 'is not a Prometheus duration', 'use e.g. "30s" or "1m"');
  }
  if (!(s.podSelector ?? s.selector) || Object.keys(s.podSelector ?? s.selector ?? {}).length === 0) {
    problems.add(
      `${f}.selector`,
      s.selector,
      'is required with metrics: the PodMonitor selects the pods by these labels',
      'pass the pod labels, e.g. { "app.kubernetes.io/name": "fluent-bit" }',
    );
  }
}

/** With one PrometheusRule per service in one `ruleNamespace`, two services may not share a name. */
function checkRuleNames(props: NodeServiceAlertsProps, problems: ProblemCollector): void {
  const names = props.services.map((s) => s.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) {
    problems.add(
      'ruleNamespace',
      props.ruleNamespace,
      `would hold two PrometheusRules named ${dup}-alerts (services in different namespaces share the name)`,
      'use layout: AlertRuleLayout.PER_NAMESPACE, or leave ruleNamespace unset',
    );
  }
}

/** Every DaemonSet of a target: `daemonSetNames`, else its name. */
function daemonSetsOf(s: NodeServiceAlertTarget): string[] {
  return s.daemonSetNames && s.daemonSetNames.length > 0 ? [...s.daemonSetNames] : [s.name];
}

/** The pod labels a target's PodMonitor selects. */
function podLabelsOf(s: NodeServiceAlertTarget): { [key: string]: string } {
  return { ...((s.podSelector ?? s.selector) as { [key: string]: string }) };
}

/** What the synth-time check needs of one target. */
function monitoredService(s: NodeServiceAlertTarget, field: string): MonitoredService {
  return {
    field,
    name: s.name,
    namespace: s.namespace,
    daemonSets: daemonSetsOf(s),
    podMonitor: s.metrics ? { selector: podLabelsOf(s), port: s.metrics.port } : undefined,
  };
}

/** The PrometheusRule objects: one per service, or one per namespace. */
function ruleObjects(
  props: NodeServiceAlertsProps,
  layout: AlertRuleLayout,
  team: string,
  partOf: string,
  settings: AlertSettings,
): AlertObject[] {
  const objectNamespace = (s: { namespace: string }) => props.ruleNamespace ?? s.namespace;
  const extra = { ...(props.ruleLabels ?? {}) };
  const inputs: ServiceAlertInput[] = props.services.map((s) => ({
    name: s.name,
    namespace: s.namespace,
    kind: s.kind,
    team: s.team ?? team,
    critical: s.critical,
    selector: s.podSelector ?? s.selector,
    daemonSets: daemonSetsOf(s),
    metricsJob: s.metrics ? `${objectNamespace(s)}/${s.name}` : undefined,
  }));
  if (layout === AlertRuleLayout.PER_SERVICE) {
    return inputs.map((input) =>
      ruleObject(`${input.name}-alerts`, objectNamespace(input), [serviceRuleGroup(input, settings)], {
        ...extra,
        ...recommendedLabels({ name: input.name, instance: input.name, component: 'alert-rules', partOf }),
      }),
    );
  }
  return [...new Set(inputs.map((i) => i.namespace))].map((ns) =>
    ruleObject(
      props.ruleNamespace !== undefined ? `${ns}-node-service-alerts` : 'node-service-alerts',
      props.ruleNamespace ?? ns,
      inputs.filter((i) => i.namespace === ns).map((i) => serviceRuleGroup(i, settings)),
      { ...extra, ...recommendedLabels({ name: 'node-service-alerts', instance: ns, component: 'alert-rules', partOf }) },
    ),
  );
}

/** One PrometheusRule. */
function ruleObject(name: string, namespace: string, groups: RuleGroup[], labels: { [key: string]: string }): AlertObject {
  return {
    id: `${namespace}-${name}`,
    manifest: { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name, namespace, labels }, spec: { groups } },
  };
}

/** The PodMonitor objects of the services with `metrics`. */
function podMonitorObjects(props: NodeServiceAlertsProps, partOf: string): AlertObject[] {
  const extra = { ...(props.ruleLabels ?? {}) };
  return props.services.flatMap((s) => {
    if (!s.metrics) return [];
    const metrics = s.metrics;
    const endpoint = { port: metrics.port, path: metrics.path ?? '/metrics', ...(metrics.interval ? { interval: metrics.interval } : {}) };
    return [
      {
        id: `${s.namespace}-${s.name}-pod-monitor`,
        manifest: {
          apiVersion: 'monitoring.coreos.com/v1',
          kind: 'PodMonitor',
          metadata: {
            name: s.name,
            namespace: props.ruleNamespace ?? s.namespace,
            labels: { ...extra, ...recommendedLabels({ name: s.name, instance: s.name, component: 'pod-monitor', partOf }) },
          },
          spec: {
            selector: { matchLabels: podLabelsOf(s) },
            namespaceSelector: { matchNames: [s.namespace] },
            podMetricsEndpoints: [endpoint],
          },
        },
      },
    ];
  });
}
