import { jsonChanges, reorderOf } from '../../src/day2/changes';
import { ListOrder } from '../../src/k8s/list-keys';

const CP = { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' };
const GPU = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' };
const CP_KEY = 'key=node-role.kubernetes.io/control-plane,operator=Exists,effect=NoSchedule';
const GPU_KEY = 'key=nvidia.com/gpu,operator=Exists,effect=NoSchedule';

/** A pod spec with `list` under `field` (in the pod spec, or in its one container `agent`). */
function podSpec(field: string, list: unknown[]): any {
  const inContainer = ['env', 'ports', 'volumeMounts'].includes(field);
  return inContainer ? { containers: [{ name: 'agent', [field]: list }] } : { [field]: list };
}

function listPath(field: string): string {
  return ['env', 'ports', 'volumeMounts'].includes(field) ? `spec.containers[agent].${field}` : `spec.${field}`;
}

interface Case {
  readonly field: string;
  /** Two distinct items, a changed version of the first, with the key label of each item. */
  readonly first: any;
  readonly second: any;
  readonly changedFirst: any;
  /** The leaf of the first item that `changedFirst` changes, with both values. */
  readonly changedLeaf: [string, unknown, unknown];
  readonly firstKey: string;
  readonly secondKey: string;
  readonly order: ListOrder;
}

const CASES: Case[] = [
  {
    field: 'tolerations',
    first: CP,
    second: GPU,
    changedFirst: { ...CP, tolerationSeconds: 30 },
    changedLeaf: ['tolerationSeconds', undefined, 30],
    firstKey: CP_KEY,
    secondKey: GPU_KEY,
    order: ListOrder.NONE,
  },
  {
    field: 'env',
    first: { name: 'NODE_NAME', value: 'a' },
    second: { name: 'LOG_LEVEL', value: 'info' },
    changedFirst: { name: 'NODE_NAME', value: 'b' },
    changedLeaf: ['value', 'a', 'b'],
    firstKey: 'NODE_NAME',
    secondKey: 'LOG_LEVEL',
    order: ListOrder.MEANINGFUL,
  },
  {
    field: 'volumes',
    first: { name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } },
    second: { name: 'config', configMap: { name: 'cfg' } },
    changedFirst: { name: 'varlog', hostPath: { path: '/var/log', type: 'DirectoryOrCreate' } },
    changedLeaf: ['hostPath.type', 'Directory', 'DirectoryOrCreate'],
    firstKey: 'varlog',
    secondKey: 'config',
    order: ListOrder.NONE,
  },
  {
    field: 'volumeMounts',
    first: { name: 'varlog', mountPath: '/var/log', readOnly: true },
    second: { name: 'varlog', mountPath: '/host/var/log', readOnly: true },
    changedFirst: { name: 'varlog', mountPath: '/var/log', readOnly: false },
    changedLeaf: ['readOnly', true, false],
    firstKey: '/var/log',
    secondKey: '/host/var/log',
    order: ListOrder.MEANINGFUL,
  },
  {
    field: 'ports',
    first: { name: 'metrics', containerPort: 9100 },
    second: { name: 'dns', containerPort: 53, protocol: 'UDP' },
    changedFirst: { name: 'metrics', containerPort: 9100, hostPort: 9100 },
    changedLeaf: ['hostPort', undefined, 9100],
    firstKey: 'containerPort=9100,protocol=TCP',
    secondKey: 'containerPort=53,protocol=UDP',
    order: ListOrder.NONE,
  },
  {
    field: 'containers',
    first: { name: 'agent', image: 'agent:1' },
    second: { name: 'reloader', image: 'reloader:1' },
    changedFirst: { name: 'agent', image: 'agent:2' },
    changedLeaf: ['image', 'agent:1', 'agent:2'],
    firstKey: 'agent',
    secondKey: 'reloader',
    order: ListOrder.MEANINGFUL,
  },
  {
    field: 'initContainers',
    first: { name: 'install', image: 'install:1' },
    second: { name: 'wait', image: 'wait:1' },
    changedFirst: { name: 'install', image: 'install:2' },
    changedLeaf: ['image', 'install:1', 'install:2'],
    firstKey: 'install',
    secondKey: 'wait',
    order: ListOrder.MEANINGFUL,
  },
];

describe.each(CASES)('jsonChanges: $field compared by key', (c) => {
  const path = listPath(c.field);
  const changes = (before: unknown[], after: unknown[]) => jsonChanges(podSpec(c.field, before), podSpec(c.field, after), 'spec');

  test('GIVEN an item added in front THEN one item added, nothing else', () => {
    expect(changes([c.first], [c.second, c.first])).toEqual([{ path: `${path}[${c.secondKey}]`, old: undefined, new: c.second }]);
  });

  test('GIVEN the first item removed THEN one item removed, nothing else', () => {
    expect(changes([c.first, c.second], [c.second])).toEqual([{ path: `${path}[${c.firstKey}]`, old: c.first, new: undefined }]);
  });

  test('GIVEN an item changed and moved behind another THEN the changed field under its key, and the reorder', () => {
    const [leaf, old, now] = c.changedLeaf;
    expect(changes([c.first, c.second], [c.second, c.changedFirst])).toEqual([
      { path: `${path}[${c.firstKey}].${leaf}`, old, new: now },
      { path: `${path} (order)`, old: [c.firstKey, c.secondKey], new: [c.secondKey, c.firstKey] },
    ]);
  });

  test(`GIVEN only a reorder THEN a reorder, never no change, and its order is ${c.order}`, () => {
    const out = changes([c.first, c.second], [c.second, c.first]);
    expect(out).toEqual([{ path: `${path} (order)`, old: [c.firstKey, c.secondKey], new: [c.secondKey, c.firstKey] }]);
    expect(reorderOf(out[0])).toEqual({ list: path, order: c.order, note: expect.any(String) });
  });

  test('GIVEN a repeated key THEN the repeats are told apart by occurrence, and a removed repeat is one removal', () => {
    expect(changes([c.first, c.second, c.first], [c.first, c.second])).toEqual([
      { path: `${path}[${c.firstKey}#2]`, old: c.first, new: undefined },
    ]);
    expect(changes([c.first], [c.first, c.changedFirst])).toEqual([
      { path: `${path}[${c.firstKey}#2]`, old: undefined, new: c.changedFirst },
    ]);
  });
});

describe('jsonChanges: keys as Kubernetes reads them', () => {
  test('GIVEN a toleration without operator and one with operator Equal THEN the same toleration, its operator field changed', () => {
    const before = { tolerations: [{ key: 'dedicated', value: 'logs', effect: 'NoSchedule' }] };
    const after = { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'logs', effect: 'NoSchedule' }] };
    expect(jsonChanges(before, after)).toEqual([
      { path: 'tolerations[key=dedicated,operator=Equal,value=logs,effect=NoSchedule].operator', old: undefined, new: 'Equal' },
    ]);
  });

  test('GIVEN a toleration that tolerates everything THEN its key is its operator alone', () => {
    expect(jsonChanges({ tolerations: [] }, { tolerations: [{ operator: 'Exists' }] })).toEqual([
      { path: 'tolerations[operator=Exists]', old: undefined, new: { operator: 'Exists' } },
    ]);
  });

  test('GIVEN a capability added in front THEN one capability added', () => {
    const caps = (add: string[]) => ({ securityContext: { capabilities: { add } } });
    expect(jsonChanges(caps(['NET_ADMIN']), caps(['SYS_ADMIN', 'NET_ADMIN']))).toEqual([
      { path: 'securityContext.capabilities.add[SYS_ADMIN]', old: undefined, new: 'SYS_ADMIN' },
    ]);
  });

  test('GIVEN an item without its key THEN the list is compared by position (every difference still listed)', () => {
    const before = { containers: [{ image: 'a:1' }] };
    const after = { containers: [{ name: 'x', image: 'a:1' }, { image: 'a:1' }] };
    expect(jsonChanges(before, after)).toEqual([
      { path: 'containers[0].name', old: undefined, new: 'x' },
      { path: 'containers[1]', old: undefined, new: { image: 'a:1' } },
    ]);
  });

  test('GIVEN a key with brackets or commas THEN it is quoted in the path', () => {
    expect(jsonChanges({ env: [] }, { env: [{ name: 'A,B', value: '1' }] })).toEqual([
      { path: 'env["A,B"]', old: undefined, new: { name: 'A,B', value: '1' } },
    ]);
  });

  test('GIVEN args (an ordered list without keys) THEN compared by position', () => {
    expect(jsonChanges({ args: ['--a', '--b'] }, { args: ['--b', '--a'] })).toEqual([
      { path: 'args[0]', old: '--a', new: '--b' },
      { path: 'args[1]', old: '--b', new: '--a' },
    ]);
  });
});
