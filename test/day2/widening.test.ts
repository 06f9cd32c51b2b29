import { WideningCategory, enforcedLevel, podSecurityWidening, rbacWidening, templateWidening } from '../../src/day2/widening';
import { daemonSet, inputs } from './support';

const base = () => daemonSet().spec.template;

/** The template with `edit` applied to a deep copy. */
function changed(edit: (t: any) => void): any {
  const t = JSON.parse(JSON.stringify(base()));
  edit(t);
  return t;
}

const categories = (ws: Array<{ category: string }>) => ws.map((w) => w.category);

function withHostPath(t: any, path: string, readOnly: boolean, name = 'host'): void {
  t.spec.volumes = [...(t.spec.volumes ?? []), { name, hostPath: { path, type: 'Directory' } }];
  t.spec.containers[0].volumeMounts = [...(t.spec.containers[0].volumeMounts ?? []), { name, mountPath: `/host${path}`, readOnly }];
}

describe('templateWidening: one case per category', () => {
  test('GIVEN the same template THEN nothing widens', () => {
    expect(templateWidening(base(), base())).toEqual([]);
  });

  test('host-path: a new host path', () => {
    const after = changed((t) => withHostPath(t, '/var/log', true));
    expect(templateWidening(base(), after)).toEqual([
      { category: WideningCategory.HOST_PATH, path: 'spec.template.spec.volumes', detail: 'new host path /var/log (read-only)' },
    ]);
  });

  test('host-path: a path below one already mounted with at least the same access is not new', () => {
    const before = changed((t) => withHostPath(t, '/var/log/', true));
    const after = changed((t) => withHostPath(t, '/var/log/pods', true));
    expect(templateWidening(before, after)).toEqual([]);
  });

  test('host-path-writable: a read-only path made writable', () => {
    const before = changed((t) => withHostPath(t, '/var/lib/agent', true));
    const after = changed((t) => withHostPath(t, '/var/lib/agent', false));
    expect(categories(templateWidening(before, after))).toEqual([WideningCategory.HOST_PATH_WRITABLE]);
  });

  test('capability: a capability added, and drop ALL given up', () => {
    const before = changed((t) => (t.spec.containers[0].securityContext = { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }));
    const after = changed((t) => (t.spec.containers[0].securityContext = { capabilities: { add: ['NET_BIND_SERVICE', 'CAP_SYS_ADMIN'] } }));
    const ws = templateWidening(before, after);
    expect(ws.map((w) => [w.category, w.detail])).toEqual([
      [WideningCategory.CAPABILITY, 'adds SYS_ADMIN'],
      [WideningCategory.CAPABILITY, 'no longer drops ALL: the container runtime’s default capabilities are back'],
    ]);
    expect(ws[0].path).toBe('spec.template.spec.containers[agent].securityContext.capabilities.add');
  });

  test('privileged: privileged true, and allowPrivilegeEscalation no longer false', () => {
    const before = changed((t) => (t.spec.containers[0].securityContext = { allowPrivilegeEscalation: false }));
    const after = changed((t) => (t.spec.containers[0].securityContext = { privileged: true }));
    expect(templateWidening(before, after).map((w) => w.path)).toEqual([
      'spec.template.spec.containers[agent].securityContext.privileged',
      'spec.template.spec.containers[agent].securityContext.allowPrivilegeEscalation',
    ]);
  });

  test('host-namespace: network, PID and IPC', () => {
    const after = changed((t) => Object.assign(t.spec, { hostNetwork: true, hostPID: true, hostIPC: true }));
    const ws = templateWidening(base(), after);
    expect(categories(ws)).toEqual([WideningCategory.HOST_NAMESPACE, WideningCategory.HOST_NAMESPACE, WideningCategory.HOST_NAMESPACE]);
    // AND host networking turns every container port into a host port
    expect(
      templateWidening(
        base(),
        changed((t) => Object.assign(t.spec, { hostNetwork: true })),
      ),
    ).toHaveLength(1);
  });

  test('host-port: a new host port, also one defaulted from hostNetwork', () => {
    const after = changed(
      (t) =>
        (t.spec.containers[0].ports = [
          { containerPort: 9100, hostPort: 9100 },
          { containerPort: 53, hostPort: 53, protocol: 'UDP' },
        ]),
    );
    expect(templateWidening(base(), after).map((w) => w.detail)).toEqual(['binds host port TCP 9100', 'binds host port UDP 53']);
    const hostNet = changed((t) => {
      t.spec.hostNetwork = true;
      t.spec.containers[0].ports = [{ containerPort: 8080 }];
    });
    expect(
      templateWidening(
        changed((t) => (t.spec.hostNetwork = true)),
        hostNet,
      ).map((w) => w.detail),
    ).toEqual(['binds host port TCP 8080']);
  });

  test('seccomp: RuntimeDefault (from the pod) to Unconfined (on the container)', () => {
    const before = changed((t) => (t.spec.securityContext = { seccompProfile: { type: 'RuntimeDefault' } }));
    const after = changed((t) => {
      t.spec.securityContext = { seccompProfile: { type: 'RuntimeDefault' } };
      t.spec.containers[0].securityContext = { seccompProfile: { type: 'Unconfined' } };
    });
    expect(templateWidening(before, after).map((w) => [w.category, w.detail])).toEqual([
      [WideningCategory.SECCOMP, 'seccomp RuntimeDefault → Unconfined'],
    ]);
    // AND dropping the profile altogether is a relaxation too
    expect(categories(templateWidening(before, base()))).toEqual([WideningCategory.SECCOMP]);
  });

  test('apparmor: the annotation or the field set to unconfined', () => {
    const annotated = changed((t) => (t.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' }));
    expect(templateWidening(base(), annotated).map((w) => w.detail)).toEqual(['AppArmor runtime default → unconfined']);
    const field = changed((t) => (t.spec.containers[0].securityContext = { appArmorProfile: { type: 'Unconfined' } }));
    expect(categories(templateWidening(base(), field))).toEqual([WideningCategory.APPARMOR]);
    expect(templateWidening(annotated, annotated)).toEqual([]);
  });

  test('GIVEN an added DaemonSet THEN all of its host access is new', () => {
    const after = changed((t) => {
      withHostPath(t, '/var/log', true);
      t.spec.hostPID = true;
    });
    expect(categories(templateWidening(undefined, after))).toEqual([WideningCategory.HOST_PATH, WideningCategory.HOST_NAMESPACE]);
  });
});

describe('rbacWidening', () => {
  const ds = daemonSet({ spec: { serviceAccountName: 'agent' } });
  const role = (rules: any[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'agent' }, rules });
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'agent' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'agent' },
    subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: 'ops' }],
  };

  test('GIVEN a new verb and a new resource on the bound ClusterRole THEN both are reported', () => {
    const before = inputs(ds, binding, role([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]));
    const after = inputs(ds, binding, role([{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'list', 'delete'] }]));
    expect(rbacWidening(before, ds, after, ds)).toEqual([
      { category: WideningCategory.RBAC, path: 'ServiceAccount ops/agent', detail: 'may now delete pods; get, list, delete secrets' },
    ]);
  });

  test('GIVEN a wildcard before THEN narrower rules after are not new', () => {
    const before = inputs(ds, binding, role([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]));
    const after = inputs(ds, binding, role([{ apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['patch'] }]));
    expect(rbacWidening(before, ds, after, ds)).toEqual([]);
  });

  test('GIVEN resourceNames dropped THEN every name is new; a role bound to someone else does not count', () => {
    const before = inputs(
      ds,
      binding,
      role([{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['agent-config'], verbs: ['get'] }]),
    );
    const after = inputs(ds, binding, role([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
    expect(rbacWidening(before, ds, after, ds)[0].detail).toBe('may now get configmaps');
    const other = { ...binding, subjects: [{ kind: 'ServiceAccount', name: 'someone-else', namespace: 'ops' }] };
    expect(rbacWidening(inputs(ds), ds, inputs(ds, other, role([{ apiGroups: [''], resources: ['*'], verbs: ['*'] }])), ds)).toEqual([]);
  });

  test('GIVEN a Role bound by a RoleBinding in the namespace THEN its rules count', () => {
    const r = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'leases', namespace: 'ops' },
      rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['update'] }],
    };
    const rb = {
      ...binding,
      kind: 'RoleBinding',
      metadata: { name: 'leases', namespace: 'ops' },
      roleRef: { kind: 'Role', name: 'leases' },
    };
    expect(rbacWidening(inputs(ds), ds, inputs(ds, r, rb), ds)[0].detail).toBe('may now update leases.coordination.k8s.io');
  });
});

describe('podSecurityWidening', () => {
  const ns = (level?: string) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'ops', labels: level ? { 'pod-security.kubernetes.io/enforce': level } : {} },
  });

  test('GIVEN restricted → baseline THEN the level went down', () => {
    expect(podSecurityWidening(inputs(ns('restricted')), inputs(ns('baseline')), 'ops')).toEqual([
      {
        category: WideningCategory.POD_SECURITY,
        path: 'Namespace ops metadata.labels["pod-security.kubernetes.io/enforce"]',
        detail: 'enforced Pod Security level restricted → baseline',
      },
    ]);
  });

  test('GIVEN the label removed THEN the level is privileged (the admission default)', () => {
    expect(enforcedLevel(inputs(ns()), 'ops')).toBe('privileged');
    expect(podSecurityWidening(inputs(ns('baseline')), inputs(ns()), 'ops')).toHaveLength(1);
  });

  test('GIVEN a stricter level, or no Namespace object on one side THEN nothing', () => {
    expect(podSecurityWidening(inputs(ns('baseline')), inputs(ns('restricted')), 'ops')).toEqual([]);
    expect(podSecurityWidening(inputs(), inputs(ns('privileged')), 'ops')).toEqual([]);
  });
});
