/**
 * The node pool resolver shared by `coverage`, `diff` and `plan`: the order in which labels name a node's pool, and
 * the rule that of several prefixed pool labels (or node roles) the first in key order wins, whatever order the
 * labels were written in.
 */

import { nodePoolOf, POOL_LABELS } from '../../src/k8s/node-pools';

describe('nodePoolOf', () => {
  test('--pool-label names the pool, or says the label is missing', () => {
    expect(nodePoolOf({ team: 'a', pool: 'x' }, 'team')).toEqual({ label: 'team', name: 'a', qualified: 'team=a' });
    expect(nodePoolOf({ pool: 'x' }, 'team')).toEqual({ name: '(no team label)', qualified: '(no team label)' });
    expect(nodePoolOf({ team: 7 }, 'team')).toEqual({ name: '(no team label)', qualified: '(no team label)' });
  });

  test('a control-plane role wins over every pool label', () => {
    const labels = { 'eks.amazonaws.com/nodegroup': 'ng', 'node-role.kubernetes.io/master': '' };
    expect(nodePoolOf(labels)).toEqual({
      label: 'node-role.kubernetes.io/master',
      name: 'node-role.kubernetes.io/master',
      qualified: 'node-role.kubernetes.io/master',
    });
  });

  test('the well-known pool labels are looked for in their order', () => {
    const labels: Record<string, string> = {};
    for (const key of [...POOL_LABELS].reverse()) labels[key] = `v-${key}`;
    expect(nodePoolOf(labels).label).toBe(POOL_LABELS[0]);
    delete labels[POOL_LABELS[0]];
    expect(nodePoolOf(labels).label).toBe(POOL_LABELS[1]);
  });

  test('of several prefixed pool labels, and of several roles, the first in key order wins', () => {
    const labels = { 'z.example.com/pool': 'z', 'b.example.com/nodegroup': 'b', 'a.example.com/other': 'no' };
    expect(nodePoolOf(labels)).toEqual({ label: 'b.example.com/nodegroup', name: 'b', qualified: 'b.example.com/nodegroup=b' });
    const roles = { 'node-role.kubernetes.io/worker': '', 'node-role.kubernetes.io/gpu': '' };
    expect(nodePoolOf(roles).label).toBe('node-role.kubernetes.io/gpu');
    // A pool label under a prefix wins over a role; a role over the instance type.
    expect(nodePoolOf({ ...roles, 'x.io/pool': 'p' }).name).toBe('p');
    expect(nodePoolOf({ ...roles, 'node.kubernetes.io/instance-type': 'm5.large' }).label).toBe('node-role.kubernetes.io/gpu');
  });

  test('values that are not strings name nothing; without any label the node is in no pool', () => {
    expect(nodePoolOf({ 'x.io/pool': 1, 'node.kubernetes.io/instance-type': 'm5' })).toEqual({
      label: 'node.kubernetes.io/instance-type',
      name: 'm5',
      qualified: 'node.kubernetes.io/instance-type=m5',
    });
    for (const labels of [undefined, null, 'pool', {}]) {
      expect(nodePoolOf(labels)).toEqual({ name: '(no pool label)', qualified: '(no pool label)' });
    }
  });

  test('agrees with the rule written out (sorted keys, first match) on generated label sets', () => {
    const names = ['pool', 'nodepool', 'node-pool', 'nodegroup', 'node-group', 'agentpool', 'zone', 'poolx', 'master', 'instance-type'];
    const prefixes = ['a.io/', 'B.io/', 'node-role.kubernetes.io/', 'node.kubernetes.io/', 'z.example.com/', 'é.io/', ''];
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    // The rule as first written: every key sorted, then the first that matches.
    // `byOrder` says when key order chose among several matching labels.
    const reference = (labels: Record<string, unknown>): { label: string | undefined; byOrder: boolean } => {
      const value = (k: string) => (typeof labels[k] === 'string' ? (labels[k] as string) : undefined);
      const controlPlane = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'].find((k) => value(k) !== undefined);
      if (controlPlane !== undefined) return { label: controlPlane, byOrder: false };
      const pool = POOL_LABELS.find((k) => value(k) !== undefined);
      if (pool !== undefined) return { label: pool, byOrder: false };
      const keys = Object.keys(labels).sort();
      const poolNames = ['pool', 'nodepool', 'node-pool', 'nodegroup', 'node-group', 'agentpool'];
      const named = keys.filter((k) => k.includes('/') && poolNames.includes(k.slice(k.indexOf('/') + 1)) && value(k) !== undefined);
      if (named.length > 0) return { label: named[0], byOrder: named.length > 1 };
      const roles = keys.filter((k) => k.startsWith('node-role.kubernetes.io/') && value(k) !== undefined);
      if (roles.length > 0) return { label: roles[0], byOrder: roles.length > 1 };
      const type = value('node.kubernetes.io/instance-type') !== undefined ? 'node.kubernetes.io/instance-type' : undefined;
      return { label: type, byOrder: false };
    };
    let byOrder = 0;
    for (let i = 0; i < 4000; i++) {
      const labels: Record<string, unknown> = {};
      const count = random(6);
      for (let k = 0; k < count; k++)
        labels[`${prefixes[random(prefixes.length)]}${names[random(names.length)]}`] = random(5) === 0 ? 3 : `v${k}`;
      const expected = reference(labels);
      expect(nodePoolOf(labels).label).toBe(expected.label);
      if (expected.byOrder) byOrder++;
    }
    // Many of the generated sets have several candidates, so that key order decides.
    expect(byOrder).toBeGreaterThan(300);
  });
});
