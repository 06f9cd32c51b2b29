/**
 * `NodeServiceAlerts`: PrometheusRule objects that put each node service's coverage into monitoring (how many nodes
 * should run it, how many do, which are missing, whether rollouts progress and pods stay up), plus optional
 * PodMonitors for agents that expose metrics.
 */

import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ProblemCollector } from '../core/errors';
import { checkShape } from '../core/shape';
import { alertsPropsShape } from './shapes';
import { checkAlertsAgainstApp, MonitoredService } from './self-check';
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

/** A metrics endpoint a node service's pods expose, scraped through a PodMonitor. */
export interface NodeServiceMetricsEndpoint {
  /** Name of the container port that serves metrics (e.g. `metrics`). */
  readonly port: string;
  /**
   * HTTP path of the metrics.
   * @default `/metrics`
   */
  readonly path?: string;
  /**
   * Scrape interval (Prometheus duration).
   * @default the Prometheus default
   */
  readonly interval?: string;
}

/**
 * One node service to monitor, as plain data (a `NodeService` or preset has these fields, so it can be passed as is).
 */
export interface NodeServiceAlertTarget {
  /** Name of the DaemonSet. */
  readonly name: string;
  /** Namespace of the DaemonSet. */
  readonly namespace: string;
  /** Node-service kind (`log-agent`, `monitoring-agent`, `gpu-monitor`, `cni-plugin`, `csi-node`, `security-agent`, `node-service`). */
  readonly kind: string;
  /**
   * Team label on the alerts, for routing.
   * @default the construct's `team`
   */
  readonly team?: string;
  /**
   * Page faster (critical tuning) regardless of the kind.
   * @default true for cni-plugin, csi-node and gpu-monitor, false otherwise
   */
  readonly critical?: boolean;
  /**
   * Labels of the service's pods: used in the runbooks (`kubectl get pods -l …`) and as the PodMonitor selector.
   * @default none (runbooks find the pods by name prefix)
   */
  readonly selector?: { [key: string]: string };
  /**
   * Labels shared by the pods of every DaemonSet of the service (stable and canary): the PodMonitor selector and the
   * runbooks' `kubectl get pods -l`. A `NodeService` has it.
   * @default `selector`
   */
  readonly podSelector?: { [key: string]: string };
  /**
   * Every DaemonSet of the service (e.g. `fluent-bit` and `fluent-bit-canary`): the alert expressions select all of
   * them, so a canary pages during its window. A `NodeService` has it.
   * @default `[name]`
   */
  readonly daemonSetNames?: string[];
  /**
   * Metrics the pods expose: emits a PodMonitor and a `NodeServiceMetricsDown` alert. Needs `selector`.
   * @default no PodMonitor
   */
  readonly metrics?: NodeServiceMetricsEndpoint;
}

/** How PrometheusRule objects are laid out. */
export enum AlertRuleLayout {
  /** One PrometheusRule per node service (`<service>-alerts`), one rule group in it. */
  PER_SERVICE = 'per-service',
  /** One PrometheusRule per namespace (`node-service-alerts`), one rule group per service in it. */
  PER_NAMESPACE = 'per-namespace',
}

/** Props of {@link NodeServiceAlerts}. */
export interface NodeServiceAlertsProps {
  /** The node services to monitor. */
  readonly services: NodeServiceAlertTarget[];
  /**
   * One PrometheusRule per service, or per namespace.
   * @default AlertRuleLayout.PER_SERVICE
   */
  readonly layout?: AlertRuleLayout;
  /**
   * Label matchers that select the kube-state-metrics series, added to every selector.
   * @default `job="kube-state-metrics"`
   */
  readonly kubeStateMetricsSelector?: string;
  /**
   * Team label of alerts whose service names none.
   * @default `platform`
   */
  readonly team?: string;
  /**
   * Namespace of the PrometheusRule and PodMonitor objects (where your Prometheus looks for rules).
   * @default each service's namespace
   */
  readonly ruleNamespace?: string;
  /**
   * Extra labels on the PrometheusRule and PodMonitor objects, e.g. the label your Prometheus `ruleSelector` needs.
   * @default none
   */
  readonly ruleLabels?: { [key: string]: string };
  /**
   * Base URL of published runbooks: adds a `runbook_url` annotation `<base>/<alert name in lower case>`. The
   * troubleshooting steps are always in the `runbook` annotation.
   * @default no runbook_url
   */
  readonly runbookBaseUrl?: string;
  /**
   * `app.kubernetes.io/part-of` of the emitted objects.
   * @default `node-services`
   */
  readonly partOf?: string;
}

const DURATION = /^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$/;

/**
 * Coverage alerts for node services (kube-state-metrics based): nodes without a scheduled pod, nodes without an
 * available pod (the alert names the DaemonSet and the count), stuck rollouts, misscheduled pods and crash-looping
 * containers — tuned per kind (CNI, CSI and GPU page after 5 minutes), with the troubleshooting path in a `runbook`
 * annotation and `node_service` / `kind` / `team` labels for routing and for silencing planned upgrades.
 */
export class NodeServiceAlerts extends Construct {
  /** The default label selector of the kube-state-metrics series (`DEFAULT_KUBE_STATE_METRICS_SELECTOR`). */
  public static readonly DEFAULT_KUBE_STATE_METRICS_SELECTOR: string = DEFAULT_KUBE_STATE_METRICS_SELECTOR;

  /** The PrometheusRule objects. */
  public readonly rules: ApiObject[] = [];
  /** The PodMonitor objects (services with `metrics`). */
  public readonly podMonitors: ApiObject[] = [];

  constructor(scope: Construct, id: string, props: NodeServiceAlertsProps) {
    super(scope, id);
    const problems = new ProblemCollector();
    // Props that are not an object are one problem (the rest is muted); every other prop is checked even without services.
    props = checkShape(props, alertsPropsShape(), problems, 'NodeServiceAlerts');
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
      problems.add(
        'runbookBaseUrl',
        props.runbookBaseUrl,
        'is not an http(s) URL',
        'use e.g. "https://runbooks.example.com/node-services"',
      );
    }
    const partOf = props.partOf ?? 'node-services';
    problems.check('partOf', partOf, labelValueError(partOf), 'use a valid label value such as "node-services"');

    const seen = new Set<string>();
    props.services.forEach((s, i) => {
      const f = `services[${i}]`;
      problems.check(`${f}.name`, s.name, dns1123SubdomainError(s.name), 'use the DaemonSet name, e.g. "fluent-bit"');
      problems.check(`${f}.namespace`, s.namespace, dns1123LabelError(s.namespace), 'use the DaemonSet namespace, e.g. "node-services"');
      if (!NODE_SERVICE_KINDS.includes(s.kind)) {
        problems.add(`${f}.kind`, s.kind, 'is not a node-service kind', `use one of ${NODE_SERVICE_KINDS.join(', ')}`);
      }
      if (s.team !== undefined)
        problems.check(`${f}.team`, s.team, labelValueError(s.team), 'use a short team name such as "observability"');
      checkLabels(`${f}.selector`, s.selector, problems);
      checkLabels(`${f}.podSelector`, s.podSelector, problems);
      if (s.daemonSetNames !== undefined) {
        if (s.daemonSetNames.length === 0)
          problems.add(`${f}.daemonSetNames`, s.daemonSetNames, 'must name at least one DaemonSet', `leave it unset for ["${s.name}"]`);
        s.daemonSetNames.forEach((n, j) =>
          problems.check(`${f}.daemonSetNames[${j}]`, n, dns1123SubdomainError(n), 'use a DaemonSet name, e.g. "fluent-bit-canary"'),
        );
      }
      if (s.metrics) {
        problems.check(
          `${f}.metrics.port`,
          s.metrics.port,
          portNameError(s.metrics.port),
          'use the name of the container port that serves metrics, e.g. "metrics"',
        );
        if (s.metrics.path !== undefined && (typeof s.metrics.path !== 'string' || !s.metrics.path.startsWith('/'))) {
          problems.add(`${f}.metrics.path`, s.metrics.path, 'must be an absolute HTTP path', 'use e.g. "/metrics"');
        }
        if (s.metrics.interval !== undefined && !(DURATION.test(s.metrics.interval) && s.metrics.interval !== '')) {
          problems.add(`${f}.metrics.interval`, s.metrics.interval, 'is not a Prometheus duration', 'use e.g. "30s" or "1m"');
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
      const key = `${s.namespace}/${s.name}`;
      if (seen.has(key)) problems.add(`${f}`, key, 'is listed twice', 'list each DaemonSet once');
      seen.add(key);
    });
    if (layout === AlertRuleLayout.PER_SERVICE && props.ruleNamespace !== undefined) {
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
    // Invalid props: reported at synthesis with the App's other problems; no rule or monitor is built.
    if (problems.reportAtSynth(this)) return;

    const settings: AlertSettings = { kubeStateMetricsSelector: ksm.trim(), runbookBaseUrl: props.runbookBaseUrl };
    const objectNamespace = (s: NodeServiceAlertTarget) => props.ruleNamespace ?? s.namespace;
    const extraLabels = { ...(props.ruleLabels ?? {}) };

    // The alerts and monitors are checked against the App at synth: they must select every DaemonSet of each service.
    const monitored: MonitoredService[] = props.services.map((s, i) => ({
      field: `services[${i}]`,
      name: s.name,
      namespace: s.namespace,
      daemonSets: s.daemonSetNames && s.daemonSetNames.length > 0 ? [...s.daemonSetNames] : [s.name],
      podMonitor: s.metrics
        ? { selector: { ...((s.podSelector ?? s.selector) as { [key: string]: string }) }, port: s.metrics.port }
        : undefined,
    }));
    this.node.addValidation({ validate: () => checkAlertsAgainstApp(this, monitored) });

    const inputs: ServiceAlertInput[] = props.services.map((s) => ({
      name: s.name,
      namespace: s.namespace,
      kind: s.kind,
      team: s.team ?? team,
      critical: s.critical,
      selector: s.podSelector ?? s.selector,
      daemonSets: s.daemonSetNames && s.daemonSetNames.length > 0 ? [...s.daemonSetNames] : [s.name],
      metricsJob: s.metrics ? `${objectNamespace(s)}/${s.name}` : undefined,
    }));

    if (layout === AlertRuleLayout.PER_SERVICE) {
      for (const input of inputs) {
        this.addRule(
          `${input.name}-alerts`,
          objectNamespace(input),
          [serviceRuleGroup(input, settings)],
          recommendedLabels({ name: input.name, instance: input.name, component: 'alert-rules', partOf }),
          extraLabels,
        );
      }
    } else {
      const namespaces = [...new Set(inputs.map((i) => i.namespace))];
      for (const ns of namespaces) {
        const groups = inputs.filter((i) => i.namespace === ns).map((i) => serviceRuleGroup(i, settings));
        const name = props.ruleNamespace !== undefined ? `${ns}-node-service-alerts` : 'node-service-alerts';
        this.addRule(
          name,
          props.ruleNamespace ?? ns,
          groups,
          recommendedLabels({ name: 'node-service-alerts', instance: ns, component: 'alert-rules', partOf }),
          extraLabels,
        );
      }
    }

    for (const s of props.services) {
      if (!s.metrics) continue;
      this.podMonitors.push(
        new ApiObject(this, `${s.namespace}-${s.name}-pod-monitor`, {
          apiVersion: 'monitoring.coreos.com/v1',
          kind: 'PodMonitor',
          metadata: {
            name: s.name,
            namespace: objectNamespace(s),
            labels: { ...extraLabels, ...recommendedLabels({ name: s.name, instance: s.name, component: 'pod-monitor', partOf }) },
          },
          spec: {
            selector: { matchLabels: { ...((s.podSelector ?? s.selector) as { [key: string]: string }) } },
            namespaceSelector: { matchNames: [s.namespace] },
            podMetricsEndpoints: [
              { port: s.metrics.port, path: s.metrics.path ?? '/metrics', ...(s.metrics.interval ? { interval: s.metrics.interval } : {}) },
            ],
          },
        }),
      );
    }
  }

  private addRule(
    name: string,
    namespace: string,
    groups: RuleGroup[],
    labels: { [key: string]: string },
    extra: { [key: string]: string },
  ): void {
    this.rules.push(
      new ApiObject(this, `${namespace}-${name}`, {
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PrometheusRule',
        metadata: { name, namespace, labels: { ...extra, ...labels } },
        spec: { groups },
      }),
    );
  }
}
