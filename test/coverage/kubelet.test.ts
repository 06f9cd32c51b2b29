/**
 * The kubelet stage (research/field-findings.md §4, docs/coverage.md "After the scheduler"): a daemon pod the scheduler
 * binds can still not run. The reasons come after the controller's and the scheduler's, in this order: `unreachable`
 * (Ready=Unknown: the node lifecycle controller's view of a kubelet that stopped reporting; the kubelet never sees the
 * pod), `notReady` (Ready=False: the kubelet starts no pod, except host-network pods when only the pod network is not
 * ready), `os` (the pod's OS is not the node's: `spec.os.name`, Windows security options, or an OS nodeSelector; no OS
 * selector means a Linux pod), `diskPressure` (the eviction manager's admission rejects non-critical pods:
 * `IsCriticalPod` is priority ≥ 2000000000).
 */

import { CoverageReason, CoverageStatus, analyzeCoverage, checkPodOnNode } from '../../src/coverage';
import { container, daemonSet, node, pod, template } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

const everything = { tolerations: [{ operator: 'Exists' }] };
const hostNetwork = { hostNetwork: true };
const windowsNode = (name: string, extra: any = {}) => node(name, { labels: { 'kubernetes.io/os': 'windows' }, ...extra });

describe('kubelet-stage reasons (table)', () => {
  const cases: Array<{ name: string; spec: any; node: any; objects?: any[]; reason: CoverageReason; desired: boolean }> = [
    // unreachable: Ready=Unknown; the pod is only created when every taint is tolerated (here: all of them)
    {
      name: 'Ready=Unknown, every taint tolerated',
      spec: everything,
      node: node('n', { conditions: [{ type: 'Ready', status: 'Unknown' }] }),
      reason: CoverageReason.UNREACHABLE,
      desired: true,
    },
    {
      name: 'Ready=Unknown with its unreachable:NoSchedule taint, not tolerated: the controller excludes it first',
      spec: {},
      node: node('n', {
        conditions: [{ type: 'Ready', status: 'Unknown' }],
        taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }],
      }),
      reason: CoverageReason.TAINT,
      desired: false,
    },
    // notReady
    {
      name: 'Ready=False',
      spec: {},
      node: node('n', { conditions: [{ type: 'Ready', status: 'False' }] }),
      reason: CoverageReason.NOT_READY,
      desired: true,
    },
    {
      name: 'Ready=False (runtime down), host network',
      spec: hostNetwork,
      node: node('n', {
        conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy' } as any],
      }),
      reason: CoverageReason.NOT_READY,
      desired: true,
    },
    {
      name: 'Ready=False (pod network not ready), host network: starts (a CNI plugin must)',
      spec: hostNetwork,
      node: node('n', {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'KubeletNotReady',
            message: 'container runtime network not ready: NetworkReady=false',
          } as any,
        ],
      }),
      reason: CoverageReason.OK,
      desired: true,
    },
    {
      name: 'Ready=False (only the reason names the network), host network: starts',
      spec: hostNetwork,
      node: node('n', {
        conditions: [{ type: 'Ready', status: 'False', reason: 'NetworkPluginNotReady', message: 'cni config uninitialized' } as any],
      }),
      reason: CoverageReason.OK,
      desired: true,
    },
    {
      name: 'Ready=False (pod network not ready), pod network',
      spec: {},
      node: node('n', { conditions: [{ type: 'Ready', status: 'False', message: 'container runtime network not ready' } as any] }),
      reason: CoverageReason.NOT_READY,
      desired: true,
    },
    { name: 'Ready=True', spec: {}, node: node('n'), reason: CoverageReason.OK, desired: true },
    { name: 'no conditions reported', spec: {}, node: node('n', { conditions: [] }), reason: CoverageReason.OK, desired: true },
    // os
    { name: 'Windows node, no OS selector (a Linux pod)', spec: {}, node: windowsNode('n'), reason: CoverageReason.OS, desired: true },
    {
      name: 'Windows node, nodeSelector kubernetes.io/os: windows',
      spec: { nodeSelector: { 'kubernetes.io/os': 'windows' } },
      node: windowsNode('n'),
      reason: CoverageReason.OK,
      desired: true,
    },
    {
      name: 'Linux node, spec.os.name windows (the reverse)',
      spec: { os: { name: 'windows' } },
      node: node('n'),
      reason: CoverageReason.OS,
      desired: true,
    },
    {
      name: 'Linux node, Windows security options (the reverse)',
      // (HostProcess pods must use the host network, or the API server rejects the DaemonSet.)
      spec: { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } },
      node: node('n'),
      reason: CoverageReason.OS,
      desired: true,
    },
    {
      name: 'Windows only in status.nodeInfo',
      spec: {},
      node: {
        ...node('n'),
        metadata: { name: 'n', labels: {} },
        status: { ...node('n').status, nodeInfo: { operatingSystem: 'windows' } },
      },
      reason: CoverageReason.OS,
      desired: true,
    },
    {
      name: 'affinity on the OS label: trusted (it selected the node)',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux', 'windows'] }] }],
            },
          },
        },
      },
      node: windowsNode('n'),
      reason: CoverageReason.OK,
      desired: true,
    },
    {
      name: 'nodeSelector linux on a Windows node: the controller excludes it',
      spec: { nodeSelector: { 'kubernetes.io/os': 'linux' } },
      node: windowsNode('n'),
      reason: CoverageReason.NODE_SELECTOR,
      desired: false,
    },
    // diskPressure
    {
      name: 'DiskPressure, no priority',
      spec: {},
      node: node('n', {
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'DiskPressure', status: 'True' },
        ],
      }),
      reason: CoverageReason.DISK_PRESSURE,
      desired: true,
    },
    {
      name: 'DiskPressure, system-node-critical',
      spec: { priorityClassName: 'system-node-critical' },
      node: node('n', { conditions: [{ type: 'DiskPressure', status: 'True' }] }),
      reason: CoverageReason.OK,
      desired: true,
    },
    {
      name: 'DiskPressure, system-cluster-critical',
      spec: { priorityClassName: 'system-cluster-critical' },
      node: node('n', { conditions: [{ type: 'DiskPressure', status: 'True' }] }),
      reason: CoverageReason.OK,
      desired: true,
    },
    {
      name: 'DiskPressure, a given class of 1000000 (not critical)',
      spec: { priorityClassName: 'agents' },
      objects: [{ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'agents' }, value: 1000000 }],
      node: node('n', { conditions: [{ type: 'DiskPressure', status: 'True' }] }),
      reason: CoverageReason.DISK_PRESSURE,
      desired: true,
    },
    {
      name: 'DiskPressure False',
      spec: {},
      node: node('n', { conditions: [{ type: 'DiskPressure', status: 'False' }] }),
      reason: CoverageReason.OK,
      desired: true,
    },
    {
      name: 'MemoryPressure: daemon pods tolerate it and are admitted',
      spec: {},
      node: node('n', { conditions: [{ type: 'MemoryPressure', status: 'True' }] }),
      reason: CoverageReason.OK,
      desired: true,
    },
    // order: unreachable before os before diskPressure
    {
      name: 'Ready=Unknown, Windows and DiskPressure: unreachable first',
      spec: everything,
      node: windowsNode('n', {
        conditions: [
          { type: 'Ready', status: 'Unknown' },
          { type: 'DiskPressure', status: 'True' },
        ],
      }),
      reason: CoverageReason.UNREACHABLE,
      desired: true,
    },
    {
      name: 'Windows and DiskPressure: os first',
      spec: {},
      node: windowsNode('n', { conditions: [{ type: 'DiskPressure', status: 'True' }] }),
      reason: CoverageReason.OS,
      desired: true,
    },
  ];

  test.each(cases)('$name → $reason', ({ spec, node: n, objects, reason, desired }) => {
    // GIVEN the DaemonSet and the node WHEN analysed THEN the reason, the status and the two verdicts follow the kubelet
    const report = analyzeCoverage([daemonSet('agent', spec), ...(objects ?? [])], [n]);
    const row = report.workloads[0].nodes[0];
    expect(row.reason).toBe(reason);
    expect(row.runs).toBe(reason === CoverageReason.OK);
    const status =
      reason === CoverageReason.OK
        ? 'running'
        : desired
          ? ['hostPort', 'resources'].includes(reason)
            ? 'pending'
            : 'notRunning'
          : 'excluded';
    expect(row.status).toBe(status);
    expect(report.workloads[0].desired).toBe(desired ? 1 : 0);
    // AND the one-pair check agrees
    const verdict = checkPodOnNode(daemonSet('agent', spec), n, undefined, objects ? { priorityClasses: objects } : undefined);
    expect([verdict.reason, verdict.desired, verdict.status]).toEqual([reason, desired, status]);
  });

  test('the details say what the kubelet does and how to fix it', () => {
    const detail = (spec: any, n: any) => analyzeCoverage([daemonSet('agent', spec)], [n]).workloads[0].nodes[0].detail;
    expect(detail(everything, node('n', { conditions: [{ type: 'Ready', status: 'Unknown' }] }))).toMatch(
      /Ready is Unknown .*never started/,
    );
    expect(detail({}, windowsNode('n'))).toBe(
      'node runs windows and the pod has no OS selector, so its Linux containers cannot start there; add nodeSelector kubernetes.io/os: linux',
    );
    expect(detail({ os: { name: 'windows' } }, node('n'))).toMatch(/pod is built for windows.*add nodeSelector kubernetes.io\/os: windows/);
    expect(detail({}, node('n', { conditions: [{ type: 'DiskPressure', status: 'True' }] }))).toMatch(
      /DiskPressure is True: the kubelet rejects and evicts pods that are not critical/,
    );
  });

  test('a kubelet-stage reason comes after the scheduler: a Pending pod on a NotReady node is resources, notReady in alsoFails', () => {
    const n = node('n', { allocatable: { cpu: '100m', memory: '1Gi', pods: '10' }, conditions: [{ type: 'Ready', status: 'False' }] });
    const verdict = checkPodOnNode(template({ containers: [container('agent', { requests: { cpu: '1' } })] }), n);
    expect(verdict.reason).toBe(CoverageReason.RESOURCES);
    expect(verdict.status).toBe(CoverageStatus.PENDING);
    expect(verdict.alsoFails.map((f) => f.reason)).toEqual([CoverageReason.NOT_READY]);
  });

  test('nodes alike but for their conditions or OS are not grouped together', () => {
    const nodes = [node('a'), node('b', { conditions: [{ type: 'DiskPressure', status: 'True' }] }), windowsNode('c'), node('d')];
    const rows = analyzeCoverage([daemonSet('agent')], nodes).workloads[0].nodes;
    expect(rows.map((r) => r.reason)).toEqual(['ok', 'diskPressure', 'os', 'ok']);
  });

  test('Ready=False nodes that differ only in whether they blame the network are not grouped together', () => {
    const says = (status: string, message: string) => ({ conditions: [{ type: 'Ready', status, message }] });
    const nodes = [
      node('down-network', says('False', 'container runtime network not ready')),
      node('down-runtime', says('False', 'container runtime is down')),
      node('up-network', says('True', 'network plugin reports ready')),
      node('up', says('True', 'kubelet is posting ready status')),
    ];
    const rows = (spec: any) => analyzeCoverage([daemonSet('agent', spec)], nodes).workloads[0].nodes.map((r) => r.reason);
    expect(rows(hostNetwork)).toEqual(['ok', 'notReady', 'ok', 'ok']);
    expect(rows({})).toEqual(['notReady', 'notReady', 'ok', 'ok']);
  });

  test('existing pods do not change kubelet verdicts, and a node under DiskPressure still counts the pod as desired', () => {
    const n = node('n', { conditions: [{ type: 'DiskPressure', status: 'True' }] });
    const report = analyzeCoverage([daemonSet('agent')], [n], [pod('other', 'n')]);
    expect(report.workloads[0]).toMatchObject({ desired: 1, schedulable: 0 });
  });
});
