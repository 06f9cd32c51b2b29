import { checkImport } from '../../src/adopt/check';
import { DifferenceClass } from '../../src/adopt/classify';
import { agentDaemonSet } from './support';

function daemonSet(container: Record<string, unknown>, volumes: unknown[] = []): any {
  return agentDaemonSet(container, { volumes });
}

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'agent', namespace: 'obs' }, data: { a: '' } };

describe('the import check', () => {
  test('GIVEN a synthesized DaemonSet with another image WHEN checked THEN the difference is unexplained', () => {
    const result = checkImport([{ object: daemonSet({}) }], [{ object: daemonSet({ image: 'agent:2.0' }) }]);
    expect(result.unexplained).toBe(1);
    expect(result.daemonSets[0].changes.map((c) => [c.path, c.class])).toEqual([
      ['spec.template.spec.containers[agent].image', DifferenceClass.UNEXPLAINED],
    ]);
  });

  test('GIVEN the library added drop ALL WHEN checked THEN it is hardening with its rule, and the access taken away is listed', () => {
    const result = checkImport(
      [{ object: daemonSet({}) }],
      [{ object: daemonSet({ securityContext: { capabilities: { drop: ['ALL'] } } }) }],
    );
    expect(result.unexplained).toBe(0);
    expect(result.daemonSets[0].changes.map((c) => [c.class, c.rule])).toEqual([[DifferenceClass.HARDENING, 'capabilities-not-dropped']]);
    expect(result.daemonSets[0].accessRemoved.map((w) => w.category)).toEqual(['capability']);
    expect(result.daemonSets[0].accessAdded).toEqual([]);
  });

  test('GIVEN a host path the output lost WHEN checked THEN it is unexplained and listed as access taken away', () => {
    const mounted = daemonSet({ volumeMounts: [{ name: 'logs', mountPath: '/var/log' }] }, [
      { name: 'logs', hostPath: { path: '/var/log' } },
    ]);
    const result = checkImport([{ object: mounted }], [{ object: daemonSet({}) }]);
    expect(result.unexplained).toBeGreaterThan(0);
    expect(result.daemonSets[0].accessRemoved.map((w) => w.category)).toContain('host-path');
  });

  test('GIVEN a ConfigMap the output lost or changed WHEN checked THEN each is an object problem', () => {
    const lost = checkImport([{ object: daemonSet({}) }, { object: configMap }], [{ object: daemonSet({}) }]);
    expect(lost.objectProblems).toEqual(['ConfigMap obs/agent: the generated app does not produce it']);
    const changed = checkImport(
      [{ object: daemonSet({}) }, { object: configMap }],
      [{ object: daemonSet({}) }, { object: { ...configMap, data: {} } }],
    );
    expect(changed.objectProblems).toEqual(['ConfigMap obs/agent: the generated app produces it changed']);
    expect(changed.unexplained).toBe(1);
  });

  test('GIVEN a Kubernetes default written out WHEN checked THEN it is explained as a default', () => {
    const result = checkImport([{ object: daemonSet({}) }], [{ object: daemonSet({ imagePullPolicy: 'IfNotPresent' }) }]);
    expect(result.daemonSets[0].changes.map((c) => c.class)).toEqual([DifferenceClass.DEFAULT]);
  });

  test('GIVEN the output adds a cluster-scoped object and a namespaced one WHEN checked THEN the cluster-scoped one is named without a namespace', () => {
    const priorityClass = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'agent-critical' }, value: 1000 };
    const result = checkImport([{ object: daemonSet({}) }], [{ object: daemonSet({}) }, { object: priorityClass }, { object: configMap }]);
    expect(result.objectsAdded).toEqual(['PriorityClass agent-critical', 'ConfigMap obs/agent']);
  });
});
