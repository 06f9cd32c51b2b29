import { ApiObject, App } from 'cdk8s';
import {
  ApiPermission,
  DnsPolicy,
  EnvField,
  HostPath,
  HostPathType,
  Mount,
  MountPropagation,
  NodeRequirement,
  NodeService,
  NodeServiceProps,
  Probe,
  Rollout,
  SeccompProfile,
  TaintEffect,
  Toleration,
} from '../../src';
import { validateAll } from '../support/schema';
import { containersOf, only, synth, testChart } from '../support/synth';

const base: NodeServiceProps = {
  name: 'agent',
  containers: [
    {
      name: 'main',
      image: 'registry.example.com/agent:1.2.3',
      ports: [{ name: 'http', containerPort: 8080 }],
      readiness: Probe.httpGet('/ready', 'http'),
    },
  ],
};

function build(props: Partial<NodeServiceProps> = {}, namespace?: string): any[] {
  const chart = testChart(namespace);
  new NodeService(chart, 'svc', { ...base, ...props });
  return synth(chart);
}

describe('NodeService defaults', () => {
  // GIVEN the minimal props WHEN synthesized
  const objects = build();
  const ds = only(objects, 'DaemonSet');
  const pod = ds.spec.template.spec;
  const c = pod.containers[0];

  test('THEN the output is one schema-valid DaemonSet and matches the snapshot', () => {
    expect(objects).toHaveLength(1);
    validateAll(objects);
    expect(objects).toMatchSnapshot();
  });

  test('THEN the selector is name + instance only and matches the template labels', () => {
    expect(ds.spec.selector).toEqual({
      matchLabels: { 'app.kubernetes.io/name': 'agent', 'app.kubernetes.io/instance': 'agent' },
    });
    for (const [k, v] of Object.entries(ds.spec.selector.matchLabels)) expect(ds.spec.template.metadata.labels[k]).toBe(v);
  });

  test('THEN the recommended labels are on the DaemonSet and the pod template', () => {
    for (const labels of [ds.metadata.labels, ds.spec.template.metadata.labels]) {
      expect(labels).toMatchObject({
        'app.kubernetes.io/name': 'agent',
        'app.kubernetes.io/instance': 'agent',
        'app.kubernetes.io/version': '1.2.3',
        'app.kubernetes.io/component': 'node-service',
        'app.kubernetes.io/part-of': 'node-services',
        'app.kubernetes.io/managed-by': 'cdk8s-node-services',
      });
    }
  });

  test('THEN the name is explicit (no path hash) and the namespace is the platform default', () => {
    expect(ds.metadata.name).toBe('agent');
    expect(ds.metadata.namespace).toBe('node-services');
  });

  test('THEN the container is hardened', () => {
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      privileged: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.hostNetwork).toBe(false);
    expect(pod.hostPID).toBe(false);
    expect(pod.hostIPC).toBeUndefined();
  });

  test('THEN resources, update strategy and node selector are explicit', () => {
    expect(c.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } });
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec.revisionHistoryLimit).toBe(10);
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.restartPolicy).toBe('Always');
    expect(c.imagePullPolicy).toBe('IfNotPresent');
  });
});

describe('NodeService host access', () => {
  test('GIVEN read-only and writable host paths THEN each has a type, read-only unless declared, and the reason is recorded', () => {
    const ds = only(
      build({
        containers: [
          {
            ...base.containers[0],
            hostPaths: [
              HostPath.readOnly('/var/log'),
              HostPath.readOnly('/etc/machine-id', { type: HostPathType.FILE }),
              HostPath.writable('/var/lib/agent', { type: HostPathType.DIRECTORY_OR_CREATE, reason: 'keeps read positions' }),
              HostPath.readOnly('/sys', { mountPath: '/host/sys', propagation: MountPropagation.HOST_TO_CONTAINER }),
            ],
          },
        ],
      }),
      'DaemonSet',
    );
    const pod = ds.spec.template.spec;
    expect(pod.volumes).toEqual([
      { name: 'host-var-log', hostPath: { path: '/var/log', type: 'Directory' } },
      { name: 'host-etc-machine-id', hostPath: { path: '/etc/machine-id', type: 'File' } },
      { name: 'host-var-lib-agent', hostPath: { path: '/var/lib/agent', type: 'DirectoryOrCreate' } },
      { name: 'host-sys', hostPath: { path: '/sys', type: 'Directory' } },
    ]);
    expect(pod.containers[0].volumeMounts).toEqual([
      { name: 'host-var-log', mountPath: '/var/log', readOnly: true },
      { name: 'host-etc-machine-id', mountPath: '/etc/machine-id', readOnly: true },
      { name: 'host-var-lib-agent', mountPath: '/var/lib/agent', readOnly: false },
      { name: 'host-sys', mountPath: '/host/sys', readOnly: true, mountPropagation: 'HostToContainer' },
    ]);
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable']).toBe('/var/lib/agent: keeps read positions');
  });

  test('GIVEN two containers mounting the same host path THEN one pod volume is shared', () => {
    const hp = HostPath.readOnly('/var/log');
    const ds = only(
      build({
        containers: [
          { ...base.containers[0], hostPaths: [hp] },
          { name: 'sidecar', image: 'registry.example.com/side:1.0.0', hostPaths: [HostPath.readOnly('/var/log')] },
        ],
      }),
      'DaemonSet',
    );
    expect(ds.spec.template.spec.volumes).toHaveLength(1);
  });

  test('GIVEN capabilities THEN ALL is dropped and only the named ones are added', () => {
    const c = containersOf(
      only(build({ containers: [{ ...base.containers[0], capabilities: ['NET_ADMIN', 'NET_RAW'] }] }), 'DaemonSet'),
    )[0];
    expect(c.securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['NET_ADMIN', 'NET_RAW'] });
  });

  test('GIVEN a privileged container with a reason THEN it is admissible (escalation allowed) and the reason is recorded', () => {
    const ds = only(
      build({
        containers: [
          {
            ...base.containers[0],
            privileged: true,
            privilegedReason: 'mounts volumes for pods on the node',
            hostPaths: [
              HostPath.writable('/var/lib/agent/mounts', {
                reason: 'propagates volume mounts',
                propagation: MountPropagation.BIDIRECTIONAL,
              }),
            ],
          },
        ],
      }),
      'DaemonSet',
    );
    const c = ds.spec.template.spec.containers[0];
    expect(c.securityContext.privileged).toBe(true);
    expect(c.securityContext.allowPrivilegeEscalation).toBe(true);
    expect(c.volumeMounts[0].mountPropagation).toBe('Bidirectional');
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/privileged-container']).toBe(
      'main: mounts volumes for pods on the node',
    );
  });

  test('GIVEN hostNetwork THEN dnsPolicy is ClusterFirstWithHostNet and host ports equal container ports', () => {
    const pod = only(build({ hostNetwork: true }), 'DaemonSet').spec.template.spec;
    expect(pod.hostNetwork).toBe(true);
    expect(pod.dnsPolicy).toBe('ClusterFirstWithHostNet');
    expect(pod.containers[0].ports[0]).toEqual({ name: 'http', containerPort: 8080, hostPort: 8080, protocol: 'TCP' });
  });

  test('GIVEN hostNetwork and an explicit DNS policy THEN the explicit one wins', () => {
    const pod = only(build({ hostNetwork: true, dnsPolicy: DnsPolicy.DEFAULT }), 'DaemonSet').spec.template.spec;
    expect(pod.dnsPolicy).toBe('Default');
  });

  test('GIVEN pod-local mounts THEN emptyDir, ConfigMap and Secret volumes are declared', () => {
    const pod = only(
      build({
        containers: [
          {
            ...base.containers[0],
            mounts: [
              Mount.emptyDir('/tmp', { sizeLimit: '64Mi' }),
              Mount.configMap('agent-config', '/etc/agent'),
              Mount.secret('agent-creds', '/var/run/creds'),
            ],
          },
        ],
      }),
      'DaemonSet',
    ).spec.template.spec;
    expect(pod.volumes).toEqual([
      { name: 'tmp-tmp', emptyDir: { sizeLimit: '64Mi' } },
      { name: 'cm-agent-config', configMap: { name: 'agent-config' } },
      { name: 'secret-agent-creds', secret: { secretName: 'agent-creds' } },
    ]);
    expect(pod.containers[0].volumeMounts.map((m: any) => m.readOnly)).toEqual([false, true, true]);
  });
});

describe('NodeService placement and rollout', () => {
  test('GIVEN selectors, affinity and tolerations THEN they render as typed', () => {
    const pod = only(
      build({
        nodeSelector: { 'kubernetes.io/os': 'linux', 'node.example.com/pool': 'general' },
        nodeAffinity: [
          { requirements: [NodeRequirement.in('topology.kubernetes.io/zone', ['a', 'b']), NodeRequirement.doesNotExist('edge')] },
        ],
        tolerations: [
          Toleration.exists('nvidia.com/gpu', { effect: TaintEffect.NO_SCHEDULE }),
          Toleration.equal('dedicated', 'infra', { effect: TaintEffect.NO_EXECUTE, tolerationSeconds: 60 }),
        ],
        controlPlane: true,
      }),
      'DaemonSet',
    ).spec.template.spec;
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux', 'node.example.com/pool': 'general' });
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      {
        matchExpressions: [
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a', 'b'] },
          { key: 'edge', operator: 'DoesNotExist' },
        ],
      },
    ]);
    expect(pod.tolerations).toEqual([
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  test.each([
    [Rollout.maxUnavailablePercent(10), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } }],
    [Rollout.surge(1), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }],
    [Rollout.onDelete('nodes are drained and replaced by the node lifecycle team'), { type: 'OnDelete' }],
  ])('GIVEN rollout %# THEN the update strategy is explicit', (rollout, expected) => {
    const ds = only(build({ rollout }), 'DaemonSet');
    expect(ds.spec.updateStrategy).toEqual(expected);
  });

  test('GIVEN OnDelete THEN its reason is recorded on the DaemonSet', () => {
    const ds = only(build({ rollout: Rollout.onDelete('nodes are drained and replaced by the node lifecycle team') }), 'DaemonSet');
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/on-delete-without-reason']).toMatch(/node lifecycle team/);
  });

  test('GIVEN priority, grace period and the node name env THEN they are set', () => {
    const pod = only(
      build({
        priorityClassName: 'system-node-critical',
        terminationGracePeriodSeconds: 5,
        containers: [{ ...base.containers[0], fieldEnv: { NODE_NAME: EnvField.NODE_NAME }, env: { LOG_LEVEL: 'info' } }],
      }),
      'DaemonSet',
    ).spec.template.spec;
    expect(pod.priorityClassName).toBe('system-node-critical');
    expect(pod.terminationGracePeriodSeconds).toBe(5);
    expect(pod.containers[0].env).toEqual([
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
  });
});

describe('NodeService API access', () => {
  test('GIVEN apiAccess in a namespaced chart THEN a ServiceAccount and least-privilege cluster RBAC without namespace are emitted', () => {
    const objects = build({ apiAccess: [ApiPermission.read(['pods', 'namespaces'])] }, 'platform');
    validateAll(objects);
    expect(objects.map((o) => o.kind)).toEqual(['DaemonSet', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding']);
    const ds = only(objects, 'DaemonSet');
    expect(ds.metadata.namespace).toBe('platform');
    expect(ds.spec.template.spec.serviceAccountName).toBe('agent');
    expect(ds.spec.template.spec.automountServiceAccountToken).toBe(true);
    const role = only(objects, 'ClusterRole');
    expect(role.metadata.namespace).toBeUndefined();
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }]);
    const binding = only(objects, 'ClusterRoleBinding');
    expect(binding.metadata.namespace).toBeUndefined();
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'agent', namespace: 'platform' }]);
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name });
  });
});

describe('NodeService seccomp', () => {
  test('GIVEN a Localhost profile and an Unconfined one with a reason THEN they are emitted and the reason is recorded', () => {
    const ds = only(
      build({
        containers: [
          { ...base.containers[0], seccompProfile: SeccompProfile.localhost('profiles/agent.json') },
          {
            name: 'legacy',
            image: 'registry.example.com/legacy:2.0.0',
            seccompProfile: SeccompProfile.unconfined('loads a kernel module the runtime profile blocks'),
          },
        ],
      }),
      'DaemonSet',
    );
    const [agent, legacy] = ds.spec.template.spec.containers;
    expect(agent.securityContext.seccompProfile).toEqual({ type: 'Localhost', localhostProfile: 'profiles/agent.json' });
    expect(legacy.securityContext.seccompProfile).toEqual({ type: 'Unconfined' });
    expect(ds.metadata.annotations['ignore-check.node-services.cdk8s.io/seccomp-unconfined']).toBe(
      'legacy: loads a kernel module the runtime profile blocks',
    );
  });
});

describe('NodeService probes', () => {
  test('GIVEN an HTTP probe on loopback over HTTPS with timings THEN host, scheme and only the given timings are emitted', () => {
    const c = only(
      build({
        hostNetwork: true,
        containers: [
          { ...base.containers[0], readiness: Probe.httpGet('/healthz', 'http', { host: '127.0.0.1', https: true, periodSeconds: 5 }) },
        ],
      }),
      'DaemonSet',
    ).spec.template.spec.containers[0];
    expect(c.readinessProbe).toEqual({ httpGet: { path: '/healthz', port: 'http', scheme: 'HTTPS', host: '127.0.0.1' }, periodSeconds: 5 });
  });
});

describe('NodeService rendering', () => {
  test('GIVEN a synthesis THEN the DaemonSet renders once for the policy checks and the output together', () => {
    const chart = testChart();
    const svc = new NodeService(chart, 'svc', base);
    const render = jest.spyOn(ApiObject.prototype, 'toJson');
    const yaml = App.of(chart).synthYaml();
    const daemonSetRenders = render.mock.contexts.filter((c) => c === svc.daemonSet).length;
    render.mockRestore();
    expect(daemonSetRenders).toBe(1);
    expect(yaml).toContain('kind: DaemonSet');
  });

  test('GIVEN a change between two syntheses THEN the second renders it', () => {
    const chart = testChart();
    const svc = new NodeService(chart, 'svc', base);
    const app = App.of(chart);
    expect(app.synthYaml()).not.toContain('team: storage');
    svc.daemonSet.metadata.addLabel('team', 'storage');
    expect(app.synthYaml()).toContain('team: storage');
    expect(synth(chart)[0].metadata.labels.team).toBe('storage');
  });
});

describe('NodeService determinism', () => {
  test('GIVEN the same props WHEN synthesized twice THEN the output is identical', () => {
    const props: Partial<NodeServiceProps> = { apiAccess: [ApiPermission.read(['pods'])], hostNetwork: true };
    expect(JSON.stringify(build(props))).toBe(JSON.stringify(build(props)));
  });
});
