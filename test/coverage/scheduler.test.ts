/**
 * What turns "created" into "running": the API server's Pod defaulting (research/daemonset-scheduling.md §4) and the
 * scheduler filters that can fail for a daemon pod (§7), plus the version switches of §8.
 */

import { CoverageReason, analyzeCoverage, checkPodOnNode, compileNode, compileWorkload } from '../../src/coverage';
import { container, daemonSet, node, pod, template } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

const withContainers = (containers: any[], extra: any = {}) => template({ containers, ...extra });
const ports = (...list: any[]) => list;
const occupied = (nodeName: string, portList: any[], extra: any = {}) =>
  pod('holder', nodeName, { containers: [container('holder', { ports: portList })], ...extra }, { namespace: 'other' });

describe('§4 the created pod: API server defaulting the analysis applies itself', () => {
  test('§4 SetDefaults_Pod: a limit without a request becomes the request', () => {
    // GIVEN a node with 1Gi free memory and a container with only a 2Gi memory limit
    const n = node('n1', { allocatable: { cpu: '4', memory: '1Gi', pods: '10' } });
    const t = withContainers([container('agent', { limits: { memory: '2Gi' } })]);
    // WHEN checked
    const verdict = checkPodOnNode(t, n);
    // THEN the request is 2Gi and does not fit
    expect(verdict.reason).toBe(CoverageReason.RESOURCES);
    expect(verdict.insufficientResources).toEqual([{ resource: 'memory', requested: 2 * 2 ** 30, free: 2 ** 30, allocatable: 2 ** 30 }]);
  });

  test('§4 SetDefaults_Pod: an explicit request wins over the limit', () => {
    const n = node('n1', { allocatable: { cpu: '4', memory: '1Gi', pods: '10' } });
    expect(checkPodOnNode(withContainers([container('agent', { requests: { memory: '512Mi' }, limits: { memory: '2Gi' } })]), n).runs).toBe(
      true,
    );
  });

  test('§4 SetDefaults_Pod: init containers are defaulted too', () => {
    const n = node('n1', { allocatable: { cpu: '4', memory: '1Gi', pods: '10' } });
    const t = withContainers([container('agent')], { initContainers: [container('init', { limits: { memory: '2Gi' } })] });
    expect(checkPodOnNode(t, n).insufficientResources?.[0]).toMatchObject({ resource: 'memory', requested: 2 * 2 ** 30 });
  });

  test('§4 defaultHostNetworkPorts: with hostNetwork a containerPort without hostPort binds the host port', () => {
    // GIVEN node-exporter style ports (containerPort only) and another pod already holding 9100 on the node
    const n = node('n1');
    const holder = occupied('n1', ports({ containerPort: 9100, hostPort: 9100 }));
    const agent = (hostNetwork: boolean) =>
      withContainers([container('agent', { ports: ports({ containerPort: 9100 }) })], { hostNetwork });
    // WHEN checked with and without host networking
    // THEN only the host-network pod conflicts
    expect(checkPodOnNode(agent(true), n, [holder])).toMatchObject({ desired: true, runs: false, reason: CoverageReason.HOST_PORT });
    expect(checkPodOnNode(agent(false), n, [holder]).runs).toBe(true);
  });

  test('§4 protocol defaults to TCP (on both sides)', () => {
    const n = node('n1');
    const t = withContainers([container('agent', { ports: ports({ containerPort: 53, hostPort: 53 }) })]);
    expect(checkPodOnNode(t, n, [occupied('n1', ports({ containerPort: 53, hostPort: 53 }))]).reason).toBe(CoverageReason.HOST_PORT);
    expect(checkPodOnNode(t, n, [occupied('n1', ports({ containerPort: 53, hostPort: 53, protocol: 'UDP' }))]).runs).toBe(true);
  });

  test('§4 a RuntimeClass given with the manifests supplies the overhead (RuntimeClass admission)', () => {
    // GIVEN a gVisor-style RuntimeClass with 250m / 64Mi overhead and a DaemonSet naming it
    const runtimeClass = {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'gvisor' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
    };
    const ds = daemonSet('sandboxed', {
      runtimeClassName: 'gvisor',
      containers: [container('agent', { requests: { cpu: '800m', memory: '64Mi' } })],
    });
    const n = node('n1', { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } });
    // WHEN analysed with and without the RuntimeClass
    const withClass = analyzeCoverage([runtimeClass, ds], [n]);
    const without = analyzeCoverage([ds], [n]);
    // THEN the overhead makes the pod too big (1050m > 1), the RuntimeClass counts as a skipped object
    expect(withClass.workloads[0].nodes[0]).toMatchObject({ runs: false, detail: 'cpu: requested 1050m, free 1 of 1 allocatable' });
    expect(withClass.skipped).toBe(1);
    // AND without it the pod fits, with a warning that the overhead is unknown
    expect(without.workloads[0].nodes[0].runs).toBe(true);
    expect(without.warnings.join('\n')).toMatch(
      /runtimeClassName is gvisor, but no RuntimeClass gvisor was given: its pod overhead is not counted/,
    );
    // AND checkPodOnNode takes the RuntimeClasses as an option
    expect(checkPodOnNode(ds, n, undefined, { runtimeClasses: [runtimeClass] }).runs).toBe(false);
  });

  test('§4 a LimitRange defaultRequest cannot be seen offline: containers without requests are flagged', () => {
    const w = compileWorkload(daemonSet('bare', { containers: [container('bare')] }));
    expect(w.warnings.join('\n')).toMatch(/containers\[0\] \(bare\) has no resource requests: a LimitRange defaultRequest/);
    expect(compileWorkload(daemonSet('sized')).warnings).toEqual([]);
  });

  test('§4 spec.overhead is added as given', () => {
    const n = node('n1', { allocatable: { cpu: '1', memory: '4Gi', pods: '10' } });
    const t = withContainers([container('agent', { requests: { cpu: '900m' } })], { overhead: { cpu: '250m' } });
    expect(checkPodOnNode(t, n).insufficientResources).toEqual([{ resource: 'cpu', requested: 1150, free: 1000, allocatable: 1000 }]);
  });
});

describe('§7 scheduler filters', () => {
  test('§7 NodeUnschedulable: cordoned nodes run daemon pods (ShouldRunDaemonPodOnUnschedulableNode)', () => {
    const cordoned = node('n1', { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] });
    expect(checkPodOnNode(template(), cordoned)).toMatchObject({ desired: true, runs: true });
  });

  test('§7 TaintToleration adds nothing after the controller: PreferNoSchedule does not make a pod Pending', () => {
    expect(checkPodOnNode(template(), node('n1', { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] })).runs).toBe(true);
  });

  describe('NodePorts (HostPortInfo.CheckConflict)', () => {
    const want = (p: any) => withContainers([container('agent', { ports: ports({ containerPort: p.hostPort, ...p }) })]);

    test.each([
      ['TCP 53 vs UDP 53', { hostPort: 53, protocol: 'TCP' }, { hostPort: 53, protocol: 'UDP' }, true],
      ['10.0.0.1:8080 vs 10.0.0.2:8080', { hostPort: 8080, hostIP: '10.0.0.1' }, { hostPort: 8080, hostIP: '10.0.0.2' }, true],
      ['0.0.0.0:8080 vs 10.0.0.1:8080', { hostPort: 8080, hostIP: '0.0.0.0' }, { hostPort: 8080, hostIP: '10.0.0.1' }, false],
      ['10.0.0.1:8080 vs 0.0.0.0:8080', { hostPort: 8080, hostIP: '10.0.0.1' }, { hostPort: 8080 }, false],
      ['"" (0.0.0.0):8080 vs 10.0.0.1:8080', { hostPort: 8080 }, { hostPort: 8080, hostIP: '10.0.0.1' }, false],
      ['10.0.0.1:8080 vs 10.0.0.1:8080', { hostPort: 8080, hostIP: '10.0.0.1' }, { hostPort: 8080, hostIP: '10.0.0.1' }, false],
      ['SCTP 9000 vs SCTP 9001', { hostPort: 9000, protocol: 'SCTP' }, { hostPort: 9001, protocol: 'SCTP' }, true],
    ])('§7 %s → runs: %s', (_name, wanted, held, runs) => {
      expect(checkPodOnNode(want(wanted), node('n1'), [occupied('n1', ports({ containerPort: held.hostPort, ...held }))]).runs).toBe(runs);
    });

    test('§7 the detail names protocol, address, port and the pod holding it', () => {
      const verdict = checkPodOnNode(want({ hostPort: 9100 }), node('n1'), [
        occupied('n1', ports({ containerPort: 9100, hostPort: 9100, hostIP: '10.0.0.1' })),
      ]);
      expect(verdict.detail).toBe('TCP 0.0.0.0:9100 conflicts with 10.0.0.1:9100 of pod other/holder');
    });

    test('§7 in 1.28 only spec.containers count: sidecar host ports are ignored on both sides', () => {
      const sidecar = container('proxy', { restartPolicy: 'Always', ports: ports({ containerPort: 15000, hostPort: 15000 }) });
      const t = withContainers([container('agent')], { initContainers: [sidecar] });
      const holder = pod('holder', 'n1', { containers: [container('x')], initContainers: [sidecar] }, { namespace: 'other' });
      expect(checkPodOnNode(t, node('n1'), [occupied('n1', ports({ containerPort: 15000, hostPort: 15000 }))]).runs).toBe(true);
      expect(
        checkPodOnNode(withContainers([container('agent', { ports: ports({ containerPort: 15000, hostPort: 15000 }) })]), node('n1'), [
          holder,
        ]).runs,
      ).toBe(true);
    });

    test('§8 from 1.33, restartable init containers (sidecars) bind host ports too', () => {
      const sidecar = container('proxy', { restartPolicy: 'Always', ports: ports({ containerPort: 15000, hostPort: 15000 }) });
      const t = withContainers([container('agent')], { initContainers: [sidecar] });
      const verdict = checkPodOnNode(t, node('n1'), [occupied('n1', ports({ containerPort: 15000, hostPort: 15000 }))], {
        kubernetesMinor: 33,
      });
      expect(verdict.reason).toBe(CoverageReason.HOST_PORT);
      expect(
        checkPodOnNode(t, node('n1'), [occupied('n1', ports({ containerPort: 15000, hostPort: 15000 }))], { kubernetesMinor: 32 }).runs,
      ).toBe(true);
    });
  });

  describe('NodeResourcesFit', () => {
    const cpuMem = (cpu: string, memory: string) => ({ requests: { cpu, memory } });

    test('§7 request = max(Σ containers, largest init container) per resource: CPU from init, memory from containers', () => {
      // GIVEN containers summing to 300m / 300Mi and an init container of 1 CPU / 100Mi
      const t = withContainers([container('a', cpuMem('100m', '100Mi')), container('b', cpuMem('200m', '200Mi'))], {
        initContainers: [container('init', cpuMem('1', '100Mi'))],
      });
      // WHEN checked on a node with 999m CPU and 299Mi memory
      const verdict = checkPodOnNode(t, node('n1', { allocatable: { cpu: '999m', memory: '299Mi', pods: '10' } }));
      // THEN the pod needs 1000m CPU (init) and 300Mi memory (sum), both short by one unit
      expect(verdict.insufficientResources).toEqual([
        { resource: 'cpu', requested: 1000, free: 999, allocatable: 999 },
        { resource: 'memory', requested: 300 * 2 ** 20, free: 299 * 2 ** 20, allocatable: 299 * 2 ** 20 },
      ]);
      // AND on a node with exactly 1000m / 300Mi it fits (equality fits)
      expect(checkPodOnNode(t, node('n1', { allocatable: { cpu: '1', memory: '300Mi', pods: '10' } })).runs).toBe(true);
    });

    test('§7 / §8 sidecars: in 1.28 a restartPolicy: Always init container counts as a plain init container', () => {
      // containers 100m; init: sidecar 200m then a plain init 300m
      const t = withContainers([container('app', { requests: { cpu: '100m' } })], {
        initContainers: [
          container('sidecar', { restartPolicy: 'Always', requests: { cpu: '200m' } }),
          container('setup', { requests: { cpu: '300m' } }),
        ],
      });
      // 1.28: max(100, 200, 300) = 300m
      const n28 = node('n1', { allocatable: { cpu: '299m', memory: '1Gi', pods: '10' } });
      expect(checkPodOnNode(t, n28).insufficientResources?.[0]).toMatchObject({ resource: 'cpu', requested: 300 });
      // 1.29+: max(100 + 200, max(200, 300 + 200)) = 500m
      expect(checkPodOnNode(t, n28, undefined, { kubernetesMinor: 29 }).insufficientResources?.[0]).toMatchObject({
        resource: 'cpu',
        requested: 500,
      });
      // and only sidecars declared before an init container add to it: a sidecar after "setup" does not
      const after = withContainers([container('app', { requests: { cpu: '100m' } })], {
        initContainers: [
          container('setup', { requests: { cpu: '300m' } }),
          container('sidecar', { restartPolicy: 'Always', requests: { cpu: '200m' } }),
        ],
      });
      expect(checkPodOnNode(after, n28, undefined, { kubernetesMinor: 29 }).insufficientResources?.[0]).toMatchObject({ requested: 300 });
      // 1.28 says why the field is ignored
      expect(
        compileWorkload(daemonSet('a', { initContainers: [container('sidecar', { restartPolicy: 'Always' })] })).warnings.join('\n'),
      ).toMatch(/initContainers\[0\] has restartPolicy: Always; Kubernetes 1\.28 drops the field/);
    });

    test('§7 already requested = the requests of the non-terminated pods bound to the node', () => {
      const n = node('n1', { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } });
      const running = pod('web', 'n1', { containers: [container('web', { requests: { cpu: '600m' } })] });
      const done = pod('job', 'n1', { containers: [container('job', { requests: { cpu: '900m' } })] }, {}, 'Succeeded');
      const failed = pod('crash', 'n1', { containers: [container('crash', { requests: { cpu: '900m' } })] }, {}, 'Failed');
      const elsewhere = pod('far', 'n2', { containers: [container('far', { requests: { cpu: '900m' } })] });
      const t = withContainers([container('agent', { requests: { cpu: '500m' } })]);
      const verdict = checkPodOnNode(t, n, [running, done, failed, elsewhere]);
      expect(verdict.insufficientResources).toEqual([{ resource: 'cpu', requested: 500, free: 400, allocatable: 1000 }]);
      expect(verdict.detail).toBe('cpu: requested 500m, free 400m of 1 allocatable');
    });

    test('§7 pod count: existing pods + 1 > allocatable pods is "too many pods", even for a pod that requests nothing', () => {
      const n = node('n1', { allocatable: { cpu: '4', memory: '4Gi', pods: '2' } });
      const existing = [pod('a', 'n1'), pod('b', 'n1')];
      const verdict = checkPodOnNode(withContainers([container('agent')]), n, existing);
      expect(verdict).toMatchObject({
        desired: true,
        runs: false,
        reason: CoverageReason.RESOURCES,
        detail: 'pods: 2 of 2 pod slots in use',
      });
      expect(checkPodOnNode(withContainers([container('agent')]), n, existing.slice(1)).runs).toBe(true);
    });

    test('§7 pod count: a node that reports allocatable without pods has 0 pod slots', () => {
      const verdict = checkPodOnNode(template(), node('n1', { allocatable: { cpu: '4', memory: '4Gi' } }));
      expect(verdict.insufficientResources?.[0]).toEqual({ resource: 'pods', requested: 1, free: 0, allocatable: 0 });
    });

    test('§7 early exit: a zero-request pod fits a fully booked node', () => {
      const n = node('n1', { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } });
      const full = pod('full', 'n1', { containers: [container('full', { requests: { cpu: '1', memory: '1Gi' } })] });
      expect(checkPodOnNode(withContainers([container('agent')]), n, [full]).runs).toBe(true);
      expect(checkPodOnNode(withContainers([container('agent', { requests: { cpu: '1m' } })]), n, [full]).runs).toBe(false);
    });

    test('§7 a resource missing from allocatable counts as 0 (nvidia.com/gpu on a CPU node)', () => {
      const t = withContainers([container('agent', { limits: { 'nvidia.com/gpu': '1' } })]);
      const verdict = checkPodOnNode(t, node('cpu-node'));
      expect(verdict.insufficientResources).toEqual([{ resource: 'nvidia.com/gpu', requested: 1, free: 0, allocatable: 0 }]);
      expect(
        checkPodOnNode(t, node('gpu-node', { allocatable: { cpu: '4', memory: '4Gi', pods: '10', 'nvidia.com/gpu': '1' } })).runs,
      ).toBe(true);
    });

    test('§7 extended resources already taken by other pods are not free', () => {
      const gpuNode = node('g', { allocatable: { cpu: '4', memory: '4Gi', pods: '10', 'nvidia.com/gpu': '1' } });
      const trainer = pod('trainer', 'g', { containers: [container('t', { limits: { 'nvidia.com/gpu': '1' } })] });
      expect(checkPodOnNode(withContainers([container('agent', { limits: { 'nvidia.com/gpu': '1' } })]), gpuNode, [trainer]).detail).toBe(
        'nvidia.com/gpu: requested 1, free 0 of 1 allocatable',
      );
    });

    test('§7 ephemeral-storage and hugepages are checked like memory', () => {
      const n = node('n1', { allocatable: { cpu: '4', memory: '4Gi', pods: '10', 'ephemeral-storage': '1Gi', 'hugepages-2Mi': '4Mi' } });
      const t = withContainers([
        container('agent', { requests: { 'ephemeral-storage': '2Gi', 'hugepages-2Mi': '6Mi' }, limits: { 'hugepages-2Mi': '6Mi' } }),
      ]);
      expect(checkPodOnNode(t, n).insufficientResources?.map((r) => r.resource)).toEqual(['ephemeral-storage', 'hugepages-2Mi']);
    });

    test('§7 resource names the scheduler does not track (no "/", not hugepages) are ignored', () => {
      const t = withContainers([container('agent', { requests: { storage: '1Ti' } })]);
      expect(checkPodOnNode(t, node('n1')).runs).toBe(true);
    });

    test('§7 quantities: CPU in milli-units rounded up, memory in bytes (1Gi does not fit 1G)', () => {
      const n = node('n1', { allocatable: { cpu: '250m', memory: '1G', pods: '10' } });
      expect(checkPodOnNode(withContainers([container('agent', { requests: { cpu: '0.25' } })]), n).runs).toBe(true);
      expect(
        checkPodOnNode(withContainers([container('agent', { requests: { cpu: '0.2501' } })]), n).insufficientResources?.[0],
      ).toMatchObject({
        resource: 'cpu',
        requested: 251,
      });
      expect(checkPodOnNode(withContainers([container('agent', { requests: { memory: '1Gi' } })]), n).insufficientResources?.[0]).toEqual({
        resource: 'memory',
        requested: 1073741824,
        free: 1000000000,
        allocatable: 1000000000,
      });
      expect(checkPodOnNode(withContainers([container('agent', { requests: { memory: '1G' } })]), n).runs).toBe(true);
    });

    test('§7 without status.allocatable the capacity is unknown: fit is not checked and the node says so', () => {
      const unknown = node('pool-a', { allocatable: null });
      expect(checkPodOnNode(withContainers([container('agent', { requests: { cpu: '64' } })]), unknown).runs).toBe(true);
      expect(compileNode(unknown).warnings.join('\n')).toMatch(
        /^node pool-a: no status.allocatable: resource fit and pod count are not checked there$/,
      );
    });

    test('§7 an invalid quantity counts as 0 and is reported', () => {
      const w = compileWorkload(daemonSet('a', { containers: [container('a', { requests: { cpu: 'lots' } })] }));
      expect(w.requests.cpu).toBe(0);
      expect(w.warnings.join('\n')).toMatch(/containers\[0\]\.resources\.requests\.cpu "lots" is not a valid non-negative quantity/);
    });
  });

  test('§8 pod-level spec.resources (1.32+) is not modeled, and the analysis says so', () => {
    const w = compileWorkload(daemonSet('a', { resources: { requests: { cpu: '1' } } }));
    expect(w.requests.cpu).toBe(10);
    expect(w.warnings.join('\n')).toMatch(
      /spec\.template\.spec\.resources \(pod-level resources, alpha in 1\.32, beta in 1\.34\) is not modeled/,
    );
  });

  test('§7 a priority class alone is no warning: preemption is modeled where it changes an answer (preemption.test.ts)', () => {
    const w = compileWorkload(daemonSet('a', { priorityClassName: 'system-node-critical' }));
    expect(w.warnings.join('\n')).not.toMatch(/preempt/);
  });
});
