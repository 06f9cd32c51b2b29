/**
 * `NodeServiceAlerts`: PrometheusRule objects that put each node service's coverage into monitoring (how many nodes
 * should run it, how many do, which are missing, whether rollouts progress and pods stay up), plus optional
 * PodMonitors for agents that expose metrics.
 */

import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ProblemCollector } from '../k8s/problems';
import { checkAlertsAgainstApp } from './self-check';
import { DEFAULT_KUBE_STATE_METRICS_SELECTOR } from './alert-rules';
import { AlertRuleLayout, resolveAlerts } from './resolve-alerts';

export { AlertRuleLayout } from './resolve-alerts';

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
    const resolved = resolveAlerts(props, problems);
    // Invalid props: reported at synthesis with the App's other problems; no rule or monitor is built.
    if (problems.reportAtSynth(this) || resolved === undefined) return;
    // The alerts and monitors are checked against the App at synth: they must select every DaemonSet of each service.
    this.node.addValidation({ validate: () => checkAlertsAgainstApp(this, resolved.monitored) });
    for (const rule of resolved.rules) this.rules.push(new ApiObject(this, rule.id, rule.manifest));
    for (const monitor of resolved.podMonitors) this.podMonitors.push(new ApiObject(this, monitor.id, monitor.manifest));
  }
}
