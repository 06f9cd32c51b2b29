import { Chart, Testing } from 'cdk8s';
import { AlertRuleLayout, NodeServiceAlerts, NodeServiceAlertsProps, NodeServiceAlertTarget } from '../../src/observability';
import { validatePodMonitor, validatePrometheusRule } from './monitoring-schema';
import { promqlErrors, rangeDurations, vectorSelectors } from './promql';

type Json = any;

const ALL_KINDS = ['node-service', 'log-agent', 'monitoring-agent', 'gpu-monitor', 'cni-plugin', 'csi-node', 'security-agent'];
const CRITICAL_KINDS = ['cni-plugin', 'csi-node', 'gpu-monitor'];

/** The tuning table the design specifies: [for, severity] per alert, for standard and critical kinds. */
const TUNING: Record<'standard' | 'critical', Record<string, [string, string]>> = {
  standard: {
    NodeServicePodsNotScheduled: ['10m', 'warning'],
    NodeServiceNodesWithoutAvailablePod: ['15m', 'warning'],
    NodeServiceRolloutStuck: ['15m', 'warning'],
    NodeServicePodsMisscheduled: ['15m', 'warning'],
    NodeServicePodCrashLooping: ['15m', 'warning'],
    NodeServiceMetricsDown: ['10m', 'warning'],
  },
  critical: {
    NodeServicePodsNotScheduled: ['5m', 'critical'],
    NodeServiceNodesWithoutAvailablePod: ['5m', 'critical'],
    NodeServiceRolloutStuck: ['10m', 'warning'],
    NodeServicePodsMisscheduled: ['15m', 'warning'],
    NodeServicePodCrashLooping: ['5m', 'critical'],
    NodeServiceMetricsDown: ['10m', 'warning'],
  },
};

/** kube-state-metrics series the alerts may use. */
const KSM_METRICS = new Set([
  'kube_daemonset_status_desired_number_scheduled',
  'kube_daemonset_status_current_number_scheduled',
  'kube_daemonset_status_number_available',
  'kube_daemonset_status_number_misscheduled',
  'kube_daemonset_status_updated_number_scheduled',
  'kube_daemonset_status_observed_generation',
  'kube_daemonset_metadata_generation',
  'kube_pod_container_status_restarts_total',
  'kube_pod_owner',
]);

function synth(props: NodeServiceAlertsProps, chartNamespace = 'monitoring'): Json[] {
  const chart = new Chart(Testing.app(), 'c', { namespace: chartNamespace });
  new NodeServiceAlerts(chart, 'alerts', props);
  return Testing.synth(chart);
}

function errorOf(props: unknown): string {
  try {
    synth(props as NodeServiceAlertsProps);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the construct to reject the props');
}

const rulesOf = (manifests: Json[]): Json[] =>
  manifests.filter((m) => m.kind === 'PrometheusRule').flatMap((m) => m.spec.groups.flatMap((g: Json) => g.rules));

const SERVICES: NodeServiceAlertTarget[] = [
  {
    name: 'fluent-bit',
    namespace: 'node-services',
    kind: 'log-agent',
    selector: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/instance': 'fluent-bit' },
    metrics: { port: 'metrics', path: '/api/v1/metrics/prometheus', interval: '30s' },
  },
  { name: 'calico-node', namespace: 'calico-system', kind: 'cni-plugin', team: 'network' },
  { name: 'ebs-csi-node', namespace: 'node-services', kind: 'csi-node', team: 'storage' },
];

describe('NodeServiceAlerts', () => {
  const manifests = synth({ services: SERVICES });

  test('GIVEN three services WHEN synthesized THEN one PrometheusRule per service in its namespace, plus a PodMonitor for the one with metrics', () => {
    expect(manifests.map((m) => [m.kind, m.metadata.namespace, m.metadata.name])).toEqual([
      ['PrometheusRule', 'node-services', 'fluent-bit-alerts'],
      ['PrometheusRule', 'calico-system', 'calico-node-alerts'],
      ['PrometheusRule', 'node-services', 'ebs-csi-node-alerts'],
      ['PodMonitor', 'node-services', 'fluent-bit'],
    ]);
    expect(manifests).toMatchSnapshot();
  });

  test('WHEN synthesized THEN every object passes the structural schema and carries the recommended labels', () => {
    for (const m of manifests) {
      expect(m.kind === 'PrometheusRule' ? validatePrometheusRule(m) : validatePodMonitor(m)).toEqual([]);
      expect(m.metadata.labels['app.kubernetes.io/managed-by']).toBe('cdk8s-node-services');
      expect(m.metadata.labels['app.kubernetes.io/part-of']).toBe('node-services');
      expect(m.metadata.labels['app.kubernetes.io/component']).toBe(m.kind === 'PrometheusRule' ? 'alert-rules' : 'pod-monitor');
    }
  });

  test('GIVEN every emitted PromQL expression WHEN parsed with the Prometheus grammar THEN there is no syntax error', () => {
    const layouts = [
      synth({ services: SERVICES }),
      synth({ services: SERVICES, layout: AlertRuleLayout.PER_NAMESPACE, kubeStateMetricsSelector: 'job="ksm", cluster=~"prod-.*"' }),
      synth({ services: ALL_KINDS.map((kind) => ({ name: `${kind}-agent`, namespace: 'node-services', kind })) }),
    ];
    const exprs = layouts.flatMap(rulesOf).map((r) => r.expr);
    expect(exprs.length).toBeGreaterThan(40);
    for (const expr of exprs) expect({ expr, errors: promqlErrors(expr) }).toEqual({ expr, errors: [] });
  });

  test('GIVEN the PromQL checker WHEN an expression is broken THEN it reports errors (the check above can fail)', () => {
    expect(promqlErrors('sum(rate(kube_pod_owner{job="x"}[5m])')).not.toEqual([]);
    expect(promqlErrors('kube_pod_owner{job=kube-state-metrics}')).not.toEqual([]);
  });

  test('GIVEN each alert WHEN its selectors are read THEN every series is a kube-state-metrics series scoped to the job, the namespace and the DaemonSet', () => {
    for (const s of SERVICES) {
      const rules = rulesOf(manifests).filter((r) => r.labels.node_service === s.name);
      for (const r of rules.filter((x) => x.alert !== 'NodeServiceMetricsDown')) {
        const selectors = vectorSelectors(r.expr);
        expect(selectors.length).toBeGreaterThan(0);
        for (const v of selectors) {
          expect(KSM_METRICS.has(v.metric)).toBe(true);
          expect(v.matchers.job).toEqual(['=', 'kube-state-metrics']);
          expect(v.matchers.namespace).toEqual(['=', s.namespace]);
          if (v.metric.startsWith('kube_daemonset_')) expect(v.matchers.daemonset).toEqual(['=', s.name]);
          if (v.metric === 'kube_pod_owner') {
            expect(v.matchers.owner_kind).toEqual(['=', 'DaemonSet']);
            expect(v.matchers.owner_name).toEqual(['=', s.name]);
          }
        }
      }
    }
  });

  test('GIVEN the coverage alerts THEN each uses the metrics its question needs', () => {
    const rules = rulesOf(manifests).filter((r) => r.labels.node_service === 'calico-node');
    const metrics = (alert: string) => new Set(vectorSelectors(rules.find((r) => r.alert === alert).expr).map((v) => v.metric));
    expect(metrics('NodeServicePodsNotScheduled')).toEqual(
      new Set(['kube_daemonset_status_desired_number_scheduled', 'kube_daemonset_status_current_number_scheduled']),
    );
    expect(metrics('NodeServiceNodesWithoutAvailablePod')).toEqual(
      new Set(['kube_daemonset_status_desired_number_scheduled', 'kube_daemonset_status_number_available']),
    );
    expect(metrics('NodeServicePodsMisscheduled')).toEqual(new Set(['kube_daemonset_status_number_misscheduled']));
    expect(metrics('NodeServiceRolloutStuck')).toEqual(
      new Set([
        'kube_daemonset_status_updated_number_scheduled',
        'kube_daemonset_status_desired_number_scheduled',
        'kube_daemonset_status_observed_generation',
        'kube_daemonset_metadata_generation',
      ]),
    );
    expect(metrics('NodeServicePodCrashLooping')).toEqual(new Set(['kube_pod_container_status_restarts_total', 'kube_pod_owner']));
    expect(rangeDurations(rules.find((r) => r.alert === 'NodeServiceRolloutStuck').expr)).toEqual(['5m']);
  });

  test.each(ALL_KINDS)('GIVEN kind %s THEN for and severity follow the tuning table (critical kinds page faster)', (kind) => {
    const rules = rulesOf(
      synth({ services: [{ name: 'agent', namespace: 'node-services', kind, selector: { app: 'agent' }, metrics: { port: 'metrics' } }] }),
    );
    const table = TUNING[CRITICAL_KINDS.includes(kind) ? 'critical' : 'standard'];
    expect(rules.map((r) => r.alert).sort()).toEqual(Object.keys(table).sort());
    for (const r of rules) {
      expect([r.for, r.labels.severity]).toEqual(table[r.alert]);
      expect(r.labels).toEqual({ severity: table[r.alert][1], node_service: 'agent', kind, team: 'platform' });
    }
  });

  test('GIVEN critical overridden per service THEN the tuning follows the override, not the kind', () => {
    const rules = rulesOf(
      synth({
        services: [
          { name: 'falco', namespace: 'node-services', kind: 'security-agent', critical: true },
          { name: 'dcgm', namespace: 'node-services', kind: 'gpu-monitor', critical: false },
        ],
      }),
    );
    const of = (svc: string, alert: string) => rules.find((r) => r.labels.node_service === svc && r.alert === alert);
    expect(of('falco', 'NodeServicePodsNotScheduled').labels.severity).toBe('critical');
    expect(of('dcgm', 'NodeServicePodsNotScheduled').labels.severity).toBe('warning');
  });

  test('GIVEN teams THEN the service team wins over the construct team, which wins over "platform"', () => {
    const rules = rulesOf(
      synth({
        team: 'sre',
        services: [
          { name: 'a', namespace: 'ns', kind: 'log-agent' },
          { name: 'b', namespace: 'ns', kind: 'log-agent', team: 'logging' },
        ],
      }),
    );
    expect(new Set(rules.filter((r) => r.labels.node_service === 'a').map((r) => r.labels.team))).toEqual(new Set(['sre']));
    expect(new Set(rules.filter((r) => r.labels.node_service === 'b').map((r) => r.labels.team))).toEqual(new Set(['logging']));
  });

  test('GIVEN the missing-pod alert THEN its description names the DaemonSet and the count', () => {
    const rule = rulesOf(manifests).find(
      (r) => r.labels.node_service === 'calico-node' && r.alert === 'NodeServiceNodesWithoutAvailablePod',
    );
    expect(rule.annotations.description).toContain('{{ $labels.namespace }}/{{ $labels.daemonset }}');
    expect(rule.annotations.description).toContain('$value');
  });

  test('GIVEN the runbooks THEN they walk the P7 troubleshooting path with the service names filled in', () => {
    const rules = rulesOf(manifests).filter((r) => r.labels.node_service === 'fluent-bit');
    const runbook = (alert: string) => rules.find((r) => r.alert === alert).annotations.runbook as string;
    const missing = runbook('NodeServicePodsNotScheduled');
    for (const step of [
      'kubectl -n node-services get daemonset fluent-bit -o wide',
      'kubectl -n node-services describe daemonset fluent-bit',
      'kubectl -n node-services get pods -l app.kubernetes.io/name=fluent-bit,app.kubernetes.io/instance=fluent-bit -o wide',
      'labels',
      'taints',
      'tolerations',
      'Allocated resources',
      'affinity',
      'node-services coverage --nodes nodes.json',
      'amtool silence add node_service=fluent-bit',
    ])
      expect(missing).toContain(step);
    const crash = runbook('NodeServicePodCrashLooping');
    for (const step of ['logs <pod> -c <container> --previous', 'Host path permissions', 'Kernel modules', 'Configuration', 'dependencies'])
      expect(crash).toContain(step);
    const stuck = runbook('NodeServiceRolloutStuck');
    for (const step of ['rollout status daemonset/fluent-bit', 'readiness probe', 'maxUnavailable', 'rollout undo daemonset/fluent-bit'])
      expect(stuck).toContain(step);
  });

  test('GIVEN a service without selector THEN the runbook finds its pods by name prefix', () => {
    const rule = rulesOf(manifests).find((r) => r.labels.node_service === 'calico-node' && r.alert === 'NodeServicePodsNotScheduled');
    expect(rule.annotations.runbook).toContain("kubectl -n calico-system get pods -o wide | grep '^calico-node-'");
  });

  test('GIVEN metrics THEN a PodMonitor selects the pods and a MetricsDown alert watches its scrape job', () => {
    const monitor = manifests.find((m) => m.kind === 'PodMonitor');
    expect(monitor.spec).toEqual({
      selector: { matchLabels: SERVICES[0].selector },
      namespaceSelector: { matchNames: ['node-services'] },
      podMetricsEndpoints: [{ port: 'metrics', path: '/api/v1/metrics/prometheus', interval: '30s' }],
    });
    const down = rulesOf(manifests).find((r) => r.alert === 'NodeServiceMetricsDown');
    expect(vectorSelectors(down.expr)).toEqual([{ metric: 'up', matchers: { job: ['=', 'node-services/fluent-bit'] } }]);
    expect(rulesOf(manifests).filter((r) => r.alert === 'NodeServiceMetricsDown')).toHaveLength(1);
  });

  test('GIVEN layout PER_NAMESPACE THEN one PrometheusRule per namespace with one group per service', () => {
    const out = synth({ services: SERVICES, layout: AlertRuleLayout.PER_NAMESPACE });
    const rules = out.filter((m) => m.kind === 'PrometheusRule');
    expect(rules.map((m) => [m.metadata.namespace, m.metadata.name, m.spec.groups.map((g: Json) => g.name)])).toEqual([
      ['node-services', 'node-service-alerts', ['node-service.node-services.fluent-bit', 'node-service.node-services.ebs-csi-node']],
      ['calico-system', 'node-service-alerts', ['node-service.calico-system.calico-node']],
    ]);
    for (const m of out) expect(m.kind === 'PrometheusRule' ? validatePrometheusRule(m) : validatePodMonitor(m)).toEqual([]);
  });

  test('GIVEN ruleNamespace, ruleLabels and runbookBaseUrl THEN objects go to that namespace with those labels and alerts link their runbook', () => {
    const out = synth({
      services: SERVICES,
      layout: AlertRuleLayout.PER_NAMESPACE,
      ruleNamespace: 'monitoring',
      ruleLabels: { release: 'kube-prometheus-stack' },
      runbookBaseUrl: 'https://runbooks.example.com/node-services/',
    });
    expect(out.map((m) => [m.kind, m.metadata.namespace, m.metadata.name])).toEqual([
      ['PrometheusRule', 'monitoring', 'node-services-node-service-alerts'],
      ['PrometheusRule', 'monitoring', 'calico-system-node-service-alerts'],
      ['PodMonitor', 'monitoring', 'fluent-bit'],
    ]);
    for (const m of out) expect(m.metadata.labels.release).toBe('kube-prometheus-stack');
    const rules = rulesOf(out);
    expect(rules.find((r) => r.alert === 'NodeServiceRolloutStuck').annotations.runbook_url).toBe(
      'https://runbooks.example.com/node-services/nodeservicerolloutstuck',
    );
    // The scrape job of a PodMonitor is <its namespace>/<its name>.
    expect(vectorSelectors(rules.find((r) => r.alert === 'NodeServiceMetricsDown').expr)[0].matchers.job).toEqual([
      '=',
      'monitoring/fluent-bit',
    ]);
  });

  test('GIVEN a custom kube-state-metrics selector THEN every kube-state-metrics series carries it', () => {
    const out = synth({ services: [SERVICES[1]], kubeStateMetricsSelector: 'job="ksm", cluster="prod"' });
    for (const r of rulesOf(out)) {
      for (const v of vectorSelectors(r.expr)) expect(v.matchers).toMatchObject({ job: ['=', 'ksm'], cluster: ['=', 'prod'] });
    }
  });
});

describe('NodeServiceAlerts prop errors', () => {
  const svc: NodeServiceAlertTarget = { name: 'fluent-bit', namespace: 'node-services', kind: 'log-agent' };
  test.each<[string, unknown, string[]]>([
    ['no services', { services: [] }, ['services', 'at least one']],
    ['no props', undefined, ['services']],
    ['unknown kind', { services: [{ ...svc, kind: 'logger' }] }, ['services[0].kind = "logger"', 'log-agent']],
    ['bad namespace', { services: [{ ...svc, namespace: 'Node_Services' }] }, ['services[0].namespace']],
    ['bad name', { services: [{ ...svc, name: 'Fluent Bit' }] }, ['services[0].name = "Fluent Bit"']],
    ['duplicate service', { services: [svc, svc] }, ['services[1]', 'twice']],
    [
      'bad selector',
      { kubeStateMetricsSelector: 'job=kube-state-metrics', services: [svc] },
      ['kubeStateMetricsSelector', 'label matchers'],
    ],
    ['metrics without selector', { services: [{ ...svc, metrics: { port: 'metrics' } }] }, ['services[0].selector', 'PodMonitor']],
    ['bad metrics port', { services: [{ ...svc, selector: { a: 'b' }, metrics: { port: 'Metrics_Port' } }] }, ['services[0].metrics.port']],
    [
      'bad metrics path',
      { services: [{ ...svc, selector: { a: 'b' }, metrics: { port: 'metrics', path: 'metrics' } }] },
      ['services[0].metrics.path'],
    ],
    [
      'bad interval',
      { services: [{ ...svc, selector: { a: 'b' }, metrics: { port: 'metrics', interval: '30 seconds' } }] },
      ['services[0].metrics.interval'],
    ],
    ['bad team', { team: 'Platform Team!', services: [svc] }, ['team = "Platform Team!"']],
    ['bad rule namespace', { ruleNamespace: 'Monitoring', services: [svc] }, ['ruleNamespace']],
    ['bad rule label', { ruleLabels: { 'bad key!': 'x' }, services: [svc] }, ['ruleLabels']],
    ['bad runbook URL', { runbookBaseUrl: 'runbooks.example.com', services: [svc] }, ['runbookBaseUrl', 'https://']],
    [
      'name clash in one rule namespace',
      { ruleNamespace: 'monitoring', services: [svc, { ...svc, namespace: 'other' }] },
      ['ruleNamespace', 'fluent-bit-alerts', 'PER_NAMESPACE'],
    ],
    ['unknown layout', { layout: 'flat', services: [svc] }, ['layout = "flat"']],
  ])('GIVEN %s WHEN constructed THEN it throws naming the construct path, field, value and fix', (_t, props, fragments) => {
    const message = errorOf(props);
    expect(message).toContain('[c/alerts]');
    expect(message).toContain('Fix:');
    for (const f of fragments) expect(message).toContain(f);
  });
});

describe('monitoring schemas', () => {
  const [rule] = synth({ services: [SERVICES[0]] }).filter((m) => m.kind === 'PrometheusRule');
  const monitor = synth({ services: [SERVICES[0]] }).find((m) => m.kind === 'PodMonitor');
  const broken = (m: Json, patch: (c: Json) => void) => {
    const c = JSON.parse(JSON.stringify(m));
    patch(c);
    return c;
  };

  test.each<[string, (c: Json) => void, string]>([
    ['for not a duration', (c) => (c.spec.groups[0].rules[0].for = '10 minutes'), 'for'],
    ['rule without expr', (c) => delete c.spec.groups[0].rules[0].expr, 'expr: required'],
    ['alert and record', (c) => (c.spec.groups[0].rules[0].record = 'x:y'), 'exactly one of alert and record'],
    ['label name with a dash', (c) => (c.spec.groups[0].rules[0].labels['node-service'] = 'x'), 'Prometheus label name'],
    ['duplicate group', (c) => c.spec.groups.push(c.spec.groups[0]), 'duplicate'],
    ['group without name', (c) => delete c.spec.groups[0].name, 'name: required'],
    ['no namespace', (c) => delete c.metadata.namespace, 'namespace: required'],
    ['typo', (c) => (c.spec.groups[0].rules[0].annotation = {}), 'unknown field'],
  ])('GIVEN a PrometheusRule with %s THEN it is rejected', (_t, patch, fragment) => {
    expect(validatePrometheusRule(broken(rule, patch)).join('\n')).toContain(fragment);
  });

  test.each<[string, (c: Json) => void, string]>([
    ['no selector', (c) => delete c.spec.selector, 'selector: required'],
    ['relative path', (c) => (c.spec.podMetricsEndpoints[0].path = 'metrics'), 'path'],
    ['bad interval', (c) => (c.spec.podMetricsEndpoints[0].interval = '30'), 'interval'],
  ])('GIVEN a PodMonitor with %s THEN it is rejected', (_t, patch, fragment) => {
    expect(validatePodMonitor(broken(monitor, patch)).join('\n')).toContain(fragment);
  });
});
