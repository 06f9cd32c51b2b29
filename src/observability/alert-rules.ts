/**
 * Coverage alert rules for node services, as plain Prometheus rule JSON built from kube-state-metrics series.
 * Pure functions, no cdk8s: the `NodeServiceAlerts` construct wraps them in PrometheusRule objects.
 *
 * Alerts and their tuning (standard kinds: log-agent, monitoring-agent, security-agent, node-service; critical kinds,
 * whose absence breaks the node rather than blinds it: cni-plugin, csi-node, gpu-monitor):
 *
 * | Alert                               | standard kinds   | critical kinds    |
 * |-------------------------------------|------------------|-------------------|
 * | NodeServicePodsNotScheduled         | 10m, warning     | 5m, critical      |
 * | NodeServiceNodesWithoutAvailablePod | 15m, warning     | 5m, critical      |
 * | NodeServiceRolloutStuck             | 15m, warning     | 10m, warning      |
 * | NodeServicePodsMisscheduled         | 15m, warning     | 15m, warning      |
 * | NodeServicePodCrashLooping          | 15m, warning     | 5m, critical      |
 * | NodeServiceMetricsDown (PodMonitor) | 10m, warning     | 10m, warning      |
 *
 * The standard durations are the kubernetes-mixin ones; critical kinds page (severity `critical`) after 5 minutes
 * because a node without its CNI or CSI pod cannot start or mount pods. Every alert carries `node_service`, `kind` and
 * `team` labels, so it can be routed per team and silenced per service during a planned upgrade
 * (`amtool silence add node_service=<name>`).
 */

import { NodeServiceError, show } from '../k8s/problems';
import { kindProfile, NodeServiceKind } from '../policy/kinds';

/** Severity label values. */
export enum AlertSeverity {
  /** Pages: the node is broken without the service. */
  CRITICAL = 'critical',
  /** Tickets: the node is degraded or blind, or a rollout needs attention. */
  WARNING = 'warning',
}

/** Names of the alerts, stable across services (services are told apart by the `node_service` label). */
export enum NodeServiceAlert {
  /** Nodes that should run a pod of the DaemonSet have none scheduled. */
  PODS_NOT_SCHEDULED = 'NodeServicePodsNotScheduled',
  /** Nodes that should run a pod of the DaemonSet have no available one. */
  NODES_WITHOUT_AVAILABLE_POD = 'NodeServiceNodesWithoutAvailablePod',
  /** A rollout has not progressed. */
  ROLLOUT_STUCK = 'NodeServiceRolloutStuck',
  /** Pods run on nodes that should not run them. */
  PODS_MISSCHEDULED = 'NodeServicePodsMisscheduled',
  /** A container of the service keeps restarting. */
  POD_CRASH_LOOPING = 'NodeServicePodCrashLooping',
  /** Prometheus cannot scrape the service's own metrics. */
  METRICS_DOWN = 'NodeServiceMetricsDown',
}

/** `for` and severity of one alert. @internal */
export interface AlertTuning {
  readonly for: string;
  readonly severity: AlertSeverity;
}

const STANDARD: Record<NodeServiceAlert, AlertTuning> = {
  [NodeServiceAlert.PODS_NOT_SCHEDULED]: { for: '10m', severity: AlertSeverity.WARNING },
  [NodeServiceAlert.NODES_WITHOUT_AVAILABLE_POD]: { for: '15m', severity: AlertSeverity.WARNING },
  [NodeServiceAlert.ROLLOUT_STUCK]: { for: '15m', severity: AlertSeverity.WARNING },
  [NodeServiceAlert.PODS_MISSCHEDULED]: { for: '15m', severity: AlertSeverity.WARNING },
  [NodeServiceAlert.POD_CRASH_LOOPING]: { for: '15m', severity: AlertSeverity.WARNING },
  [NodeServiceAlert.METRICS_DOWN]: { for: '10m', severity: AlertSeverity.WARNING },
};

const CRITICAL: Record<NodeServiceAlert, AlertTuning> = {
  [NodeServiceAlert.PODS_NOT_SCHEDULED]: { for: '5m', severity: AlertSeverity.CRITICAL },
  [NodeServiceAlert.NODES_WITHOUT_AVAILABLE_POD]: { for: '5m', severity: AlertSeverity.CRITICAL },
  [NodeServiceAlert.ROLLOUT_STUCK]: { for: '10m', severity: AlertSeverity.WARNING },
  [NodeServiceAlert.PODS_MISSCHEDULED]: { for: '15m', severity: AlertSeverity.WARNING },
  [NodeServiceAlert.POD_CRASH_LOOPING]: { for: '5m', severity: AlertSeverity.CRITICAL },
  [NodeServiceAlert.METRICS_DOWN]: { for: '10m', severity: AlertSeverity.WARNING },
};

/** The tuning table for a service: critical when the kind's profile says so, unless overridden. @internal */
function alertTuning(kind: string, critical?: boolean): Record<NodeServiceAlert, AlertTuning> {
  return (critical ?? kindProfile(kind).critical) ? CRITICAL : STANDARD;
}

/** Default selector of the kube-state-metrics series. */
export const DEFAULT_KUBE_STATE_METRICS_SELECTOR = 'job="kube-state-metrics"';

/** The kind strings a service may have (the values of `NodeServiceKind`). */
export const NODE_SERVICE_KINDS: readonly string[] = Object.values(NodeServiceKind);

/** One Prometheus alerting rule. @internal */
export interface AlertingRule {
  readonly alert: string;
  readonly expr: string;
  readonly for: string;
  readonly labels: { [key: string]: string };
  readonly annotations: { [key: string]: string };
}

/** One Prometheus rule group. @internal */
export interface RuleGroup {
  readonly name: string;
  readonly rules: AlertingRule[];
}

/** Everything the rules of one service need, already validated. @internal */
export interface ServiceAlertInput {
  readonly name: string;
  readonly namespace: string;
  readonly kind: string;
  readonly team: string;
  readonly critical?: boolean;
  /** Pod labels, for `kubectl get pods -l` in the runbooks. */
  readonly selector?: { [key: string]: string };
  /** Every DaemonSet of the service (stable, canary), `name` first. */
  readonly daemonSets: string[];
  /** `job` label of the service's own scrape target (PodMonitor), when it has one. */
  readonly metricsJob?: string;
}

/** Settings shared by every service. @internal */
export interface AlertSettings {
  /** Label matchers of the kube-state-metrics series, e.g. `job="kube-state-metrics"`. */
  readonly kubeStateMetricsSelector: string;
  /** Base URL of the runbooks; adds `runbook_url` = `<base>/<alert name lower-case>`. */
  readonly runbookBaseUrl?: string;
}

function selectorText(selector: { [key: string]: string } | undefined): string | undefined {
  if (!selector || Object.keys(selector).length === 0) return undefined;
  return Object.entries(selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** The P7 troubleshooting path, one runbook per alert, with the service's names filled in. */
function runbook(alert: NodeServiceAlert, s: ServiceAlertInput): string {
  const ds = `kubectl -n ${s.namespace} get daemonset ${s.name} -o wide`;
  const describe = `kubectl -n ${s.namespace} describe daemonset ${s.name}`;
  const sel = selectorText(s.selector);
  const pods = sel
    ? `kubectl -n ${s.namespace} get pods -l ${sel} -o wide`
    : `kubectl -n ${s.namespace} get pods -o wide | grep '^${s.name}-'`;
  const coverage =
    `kubectl get nodes -o json > nodes.json && kubectl get pods -A -o json > pods.json && ` +
    `kubectl -n ${s.namespace} get daemonset ${s.name} -o yaml | node-services coverage --nodes nodes.json --pods pods.json -`;
  const missing = [
    `1. ${ds} — compare DESIRED, CURRENT, READY, AVAILABLE.`,
    `2. ${describe} — read the events (FailedCreate: quota, admission or Pod Security denials; FailedPlacement).`,
    `3. ${pods} — list the nodes that have a pod; compare with kubectl get nodes.`,
    '4. For a node without a pod, check: labels against nodeSelector/affinity (kubectl get node <node> --show-labels), ' +
      'taints against tolerations (kubectl describe node <node>, Taints), allocatable resources against the requests ' +
      '(kubectl describe node <node>, Allocated resources), host port conflicts, and for a Pending pod kubectl describe pod.',
    `5. Explain every node at once: ${coverage}`,
  ];
  const silence = `Planned upgrade? Silence it: amtool silence add node_service=${s.name} --comment=<change>.`;
  switch (alert) {
    case NodeServiceAlert.PODS_NOT_SCHEDULED:
      return [...missing, silence].join('\n');
    case NodeServiceAlert.NODES_WITHOUT_AVAILABLE_POD:
      return [
        ...missing.slice(0, 3),
        `4. For a pod that exists but is not available: kubectl -n ${s.namespace} describe pod <pod> — readiness probe failures, ` +
          'image pull errors, CreateContainerConfigError; for restarts follow the NodeServicePodCrashLooping runbook.',
        '5. For a node with no pod at all, follow the NodeServicePodsNotScheduled runbook (labels, taints, resources, affinity).',
        silence,
      ].join('\n');
    case NodeServiceAlert.ROLLOUT_STUCK:
      return [
        `1. kubectl -n ${s.namespace} rollout status daemonset/${s.name} — how many pods are updated.`,
        `2. ${pods} — find new pods that are not Ready; kubectl -n ${s.namespace} describe pod <pod> for readiness probe failures.`,
        `3. kubectl -n ${s.namespace} get daemonset ${s.name} -o jsonpath='{.spec.updateStrategy}' — maxUnavailable too small for the ` +
          'number of unhealthy pods stalls the rollout; an OnDelete strategy never replaces pods by itself.',
        `4. Roll back if the new version is bad: kubectl -n ${s.namespace} rollout undo daemonset/${s.name} (or revert the image in code).`,
        silence,
      ].join('\n');
    case NodeServiceAlert.PODS_MISSCHEDULED:
      return [
        `1. ${pods} — the pods running on nodes that no longer match.`,
        '2. kubectl get node <node> --show-labels and kubectl describe node <node> — a label was removed or a taint added after the pod started.',
        `3. ${describe} — compare nodeSelector, affinity and tolerations with the node; fix the node labels or the DaemonSet, ` +
          'then the controller deletes the misscheduled pods.',
      ].join('\n');
    case NodeServiceAlert.POD_CRASH_LOOPING:
      return [
        `1. kubectl -n ${s.namespace} logs <pod> -c <container> --previous — why the last run ended.`,
        `2. kubectl -n ${s.namespace} describe pod <pod> — exit code, OOMKilled, probe failures, the node it runs on.`,
        '3. Host path permissions: does the mounted host path exist on that node, with the owner and SELinux/AppArmor labels the agent needs? ' +
          '(kubectl debug node/<node> -it --image=busybox -- ls -lZ /host<path>)',
        '4. Kernel modules and features the agent needs (eBPF, nf_tables, GPU driver): lsmod / uname -r on the node via kubectl debug node/<node>.',
        `5. Configuration: the ConfigMaps and Secrets the pod mounts (kubectl -n ${s.namespace} get configmap,secret), and dependencies ` +
          '(API server, log or metrics backend) reachable from the node.',
        silence,
      ].join('\n');
    case NodeServiceAlert.METRICS_DOWN:
      return [
        `1. ${pods} — is the pod on that node Running and Ready?`,
        `2. kubectl -n ${s.namespace} port-forward pod/<pod> <port> and curl the metrics path — does the agent serve metrics?`,
        '3. Check the PodMonitor selector and port name against the pod, and NetworkPolicies between Prometheus and the node (host-network agents listen on the node IP).',
      ].join('\n');
    default:
      throw new NodeServiceError(
        'runbook',
        [{ field: 'runbook(alert)', value: show(alert), problem: 'is not a NodeServiceAlert', fix: 'pass a member of NodeServiceAlert' }],
        'arguments',
      );
  }
}

/** A PromQL matcher of `label` for every name in `names`: `="a"` for one, `=~"a|a-canary"` for several. */
function namesMatcher(label: string, names: string[]): string {
  if (names.length === 1) return `${label}="${names[0]}"`;
  return `${label}=~"${names.map((n) => n.replace(/[.]/g, '\\\\.')).join('|')}"`;
}

/** The alert rules of one service. @internal */
function serviceRules(s: ServiceAlertInput, settings: AlertSettings): AlertingRule[] {
  const ksm = settings.kubeStateMetricsSelector;
  const ds = `{${ksm},namespace="${s.namespace}",${namesMatcher('daemonset', s.daemonSets)}}`;
  const tuning = alertTuning(s.kind, s.critical);
  const where = `DaemonSet {{ $labels.namespace }}/{{ $labels.daemonset }} (${s.kind})`;
  const count = '{{ printf "%.0f" $value }}';

  const rules: [NodeServiceAlert, string, string, string][] = [
    [
      NodeServiceAlert.PODS_NOT_SCHEDULED,
      `kube_daemonset_status_desired_number_scheduled${ds}\n  -\nkube_daemonset_status_current_number_scheduled${ds}\n  > 0`,
      `${s.name}: nodes without a scheduled pod.`,
      `${count} node(s) that should run ${where} have no pod scheduled: they are not covered.`,
    ],
    [
      NodeServiceAlert.NODES_WITHOUT_AVAILABLE_POD,
      `kube_daemonset_status_desired_number_scheduled${ds}\n  -\nkube_daemonset_status_number_available${ds}\n  > 0`,
      `${s.name}: nodes without an available pod.`,
      `${count} node(s) that should run ${where} have no available pod.`,
    ],
    [
      NodeServiceAlert.ROLLOUT_STUCK,
      '(\n' +
        `  (kube_daemonset_status_updated_number_scheduled${ds} != kube_daemonset_status_desired_number_scheduled${ds})\n` +
        '  or\n' +
        `  (kube_daemonset_status_observed_generation${ds} != kube_daemonset_metadata_generation${ds})\n` +
        ')\nand\n' +
        `(changes(kube_daemonset_status_updated_number_scheduled${ds}[5m]) == 0)`,
      `${s.name}: rollout is not progressing.`,
      `The rollout of ${where} is incomplete and has not updated a pod in the last 5 minutes.`,
    ],
    [
      NodeServiceAlert.PODS_MISSCHEDULED,
      `kube_daemonset_status_number_misscheduled${ds} > 0`,
      `${s.name}: pods run on nodes that should not run them.`,
      `${count} pod(s) of ${where} run on nodes that no longer match its node selector, affinity or tolerations.`,
    ],
    [
      NodeServiceAlert.POD_CRASH_LOOPING,
      `increase(kube_pod_container_status_restarts_total{${ksm},namespace="${s.namespace}"}[15m]) >= 3\n` +
        'and on (namespace, pod)\n' +
        `kube_pod_owner{${ksm},namespace="${s.namespace}",owner_kind="DaemonSet",${namesMatcher('owner_name', s.daemonSets)}}`,
      `${s.name}: a container keeps restarting.`,
      `Container {{ $labels.container }} of pod {{ $labels.namespace }}/{{ $labels.pod }} (DaemonSet ${s.namespace}/${s.name}, ${s.kind}) ` +
        'restarted {{ printf "%.0f" $value }} times in 15 minutes.',
    ],
  ];
  if (s.metricsJob) {
    rules.push([
      NodeServiceAlert.METRICS_DOWN,
      `up{job="${s.metricsJob}"} == 0`,
      `${s.name}: metrics endpoint down.`,
      `Prometheus cannot scrape {{ $labels.instance }} (pod {{ $labels.pod }}) of DaemonSet ${s.namespace}/${s.name} (${s.kind}).`,
    ]);
  }
  return rules.map(([alert, expr, summary, description]) => ({
    alert,
    expr,
    for: tuning[alert].for,
    labels: { severity: tuning[alert].severity, node_service: s.name, kind: s.kind, team: s.team },
    annotations: {
      summary,
      description,
      runbook: runbook(alert, s),
      ...(settings.runbookBaseUrl ? { runbook_url: `${settings.runbookBaseUrl.replace(/\/+$/, '')}/${alert.toLowerCase()}` } : {}),
    },
  }));
}

/** The rule group of one service. @internal */
export function serviceRuleGroup(s: ServiceAlertInput, settings: AlertSettings): RuleGroup {
  return { name: `node-service.${s.namespace}.${s.name}`, rules: serviceRules(s, settings) };
}

const MATCHER = '\\s*[a-zA-Z_][a-zA-Z0-9_]*\\s*(=|!=|=~|!~)\\s*"(?:[^"\\\\]|\\\\.)*"\\s*';
const MATCHERS = new RegExp(`^${MATCHER}(,${MATCHER})*$`);

/** Why `selector` is not a comma-separated list of PromQL label matchers, or undefined. @internal */
export function labelMatchersError(selector: string): string | undefined {
  if (typeof selector !== 'string' || selector.trim() === '') return 'must not be empty';
  if (!MATCHERS.test(selector)) return 'is not a comma-separated list of label matchers such as job="kube-state-metrics"';
  return undefined;
}
