import { Construct } from 'constructs';
import { EnvSource, HostPath, HostPathType, Mount, NodeService, Probe, Toleration } from '../../src';
import { hostPathFrom, NodeServicePresetProps, presetService } from '../../src/presets/common';
import { STATE_DIR_SHAPE, StateDirOptions } from '../../src/core/props';
import { NodeServiceKind } from '../../src/policy/kinds';
import { CniPlugin } from '../../src/presets/cni-plugin';
import { CsiNode } from '../../src/presets/csi-node';
import { GpuMonitor } from '../../src/presets/gpu-monitor';
import { ContainerRuntime, LogAgent } from '../../src/presets/log-agent';
import { MonitoringAgent } from '../../src/presets/monitoring-agent';
import { SecurityAgent, SecurityAgentMode } from '../../src/presets/security-agent';
import { errorOf } from '../support/synth';

const image = 'registry.example.com/agent:1.0.0';
const resources = { cpuRequest: '10m', memoryRequest: '16Mi', memoryLimit: '32Mi' };

/** The fields the problems of `message` are reported at, in order. */
function fieldsOf(message: string): string[] {
  return message
    .split('\n')
    .filter((l) => l.startsWith('    - '))
    .map((l) => l.slice('    - '.length).split(' = ')[0]);
}

/**
 * A preset of the test's own, whose host paths come in the order `order` says: the state dir first or last, after
 * `before` read-only paths of its own. Its `stateDir` is recorded as the state dir's field, never as a position.
 */
interface OrderedProps extends NodeServicePresetProps, StateDirOptions {}
class OrderedPreset extends NodeService {
  constructor(scope: Construct, id: string, props: OrderedProps, order: 'state-first' | 'state-last', before: number) {
    super(
      scope,
      id,
      presetService(props, 'OrderedPreset', STATE_DIR_SHAPE, (p) => {
        const own = ['/var/log', '/var/lib/docker/containers', '/run/log/journal'].slice(0, before).map((h) => HostPath.readOnly(h));
        const state = hostPathFrom(
          HostPath.writable(p.stateDir ?? '/var/lib/ordered', { type: HostPathType.DIRECTORY_OR_CREATE, reason: 'keeps read positions' }),
          'stateDir',
        );
        const hostPaths = order === 'state-first' ? [state, ...own] : [...own, state];
        return {
          service: {
            name: 'ordered',
            kind: NodeServiceKind.LOG_AGENT,
            containers: [{ name: 'agent', image: p.image, resources, hostPaths, runAsUser: 0, runAsNonRoot: false }],
          },
        };
      }).service,
    );
  }
}

describe('field provenance: a preset reports each problem at the field the user wrote, wherever the part sits', () => {
  const bad: OrderedProps = {
    image,
    stateDir: '/etc/ordered',
    extraHostPaths: [HostPath.readOnly('/var/log/pods'), HostPath.readOnly('/etc/shadow')],
    sidecars: [{ name: 'shipper', image, resources, hostPaths: [HostPath.readOnly('/etc/passwd')] }],
  };
  const cases: Array<['state-first' | 'state-last', number]> = [
    ['state-first', 0],
    ['state-first', 3],
    ['state-last', 1],
    ['state-last', 3],
  ];

  test.each(cases)(
    'GIVEN the preset host paths in order %s after %i own paths WHEN stateDir and extras are bad THEN the same user fields are blamed',
    (order, before) => {
      // WHEN
      const message = errorOf((s) => new OrderedPreset(s, 'p', bad, order, before));
      // THEN
      expect(fieldsOf(message).sort()).toEqual(['extraHostPaths[1].path', 'sidecars[0].hostPaths[0].path', 'stateDir']);
      expect(message).toContain('stateDir = "/etc/ordered"');
      expect(message).toContain('extraHostPaths[1].path = "/etc/shadow"');
    },
  );

  test.each([
    ['containerd', {}],
    ['docker', { containerRuntime: ContainerRuntime.DOCKER }],
    ['docker with the journal', { containerRuntime: ContainerRuntime.DOCKER, journal: true }],
  ])(
    'GIVEN a LogAgent on %s (more preset host paths before the state dir) THEN stateDir and extraHostPaths keep their names',
    (_, options) => {
      const message = errorOf(
        (s) =>
          new LogAgent(s, 'logs', { image, ...options, stateDir: '/etc/positions', extraHostPaths: [HostPath.readOnly('/etc/shadow')] }),
      );
      expect(fieldsOf(message).sort()).toEqual(['extraHostPaths[0].path', 'stateDir']);
    },
  );
});

type Build = (scope: Construct, props: any) => void;
const PRESETS: Array<[string, Build, object]> = [
  ['LogAgent', (s, p) => new LogAgent(s, 'x', p), {}],
  ['MonitoringAgent', (s, p) => new MonitoringAgent(s, 'x', p), {}],
  ['GpuMonitor', (s, p) => new GpuMonitor(s, 'x', p), {}],
  ['CsiNode', (s, p) => new CsiNode(s, 'x', p), { driverName: 'ebs.csi.aws.com' }],
  ['CniPlugin', (s, p) => new CniPlugin(s, 'x', p), { install: { image, command: ['/install.sh'] }, healthPort: 9099 }],
  ['SecurityAgent', (s, p) => new SecurityAgent(s, 'x', p), {}],
];

/** A bad value of every field every preset takes, and the field (and value) it must be reported at. */
const SHARED: Array<[string, object, string]> = [
  ['image', { image: 'UPPER CASE:@@' }, 'image = "UPPER CASE:@@"'],
  ['name', { name: 'Bad_Name' }, 'name = "Bad_Name"'],
  [
    'extraHostPaths',
    { extraHostPaths: [HostPath.readOnly('/proc/x'), HostPath.readOnly('relative')] },
    'extraHostPaths[1].path = "relative"',
  ],
  ['extraArgs', { extraArgs: ['--ok', 7] }, 'extraArgs[1] = 7'],
  [
    'extraCapabilities',
    { extraCapabilities: ['bogus cap'], extraCapabilitiesReason: 'a reason long enough' },
    'extraCapabilities[0] = "bogus cap"',
  ],
  ['extraCapabilitiesReason', { extraCapabilities: ['CHOWN'] }, 'extraCapabilitiesReason = undefined'],
  [
    'sidecars',
    {
      sidecars: [
        { name: 'one', image, resources },
        { name: 'two', image: 'BAD IMAGE', resources },
      ],
    },
    'sidecars[1].image = "BAD IMAGE"',
  ],
  [
    'extraInitContainers',
    { extraInitContainers: [{ name: 'init', image: 'BAD IMAGE', command: ['x'], resources }] },
    'extraInitContainers[0].image = "BAD IMAGE"',
  ],
  ['env', { env: { 'bad name': 'x' } }, 'env["bad name"] = "bad name"'],
  ['fieldEnv', { fieldEnv: { NODE_IP: 'status.nope' } }, 'fieldEnv["NODE_IP"] = "status.nope"'],
  ['mounts', { mounts: [Mount.emptyDir('/scratch'), Mount.emptyDir('relative/tmp')] }, 'mounts[1].mountPath = "relative/tmp"'],
  ['envFrom', { envFrom: [EnvSource.configMap('Bad_Name')] }, 'envFrom[0].name = "Bad_Name"'],
  ['resources', { resources: { ...resources, cpuRequest: 'lots' } }, 'resources.cpuRequest = "lots"'],
  ['readiness', { readiness: Probe.httpGet('/ready', 'no-such-port') }, 'readiness.port = "no-such-port"'],
  ['tolerations', { tolerations: [Toleration.exists('Bad Key')] }, 'tolerations[0].key = "Bad Key"'],
  ['labels', { labels: { 'bad key!': 'v' } }, 'labels["bad key!"] = "bad key!"'],
];

/** A bad value of each preset's own fields, and the field it must be reported at. */
const OWN: { [preset: string]: Array<[string, object, string]> } = {
  LogAgent: [
    ['stateDir', { stateDir: '/etc/positions' }, 'stateDir = "/etc/positions"'],
    ['stateDir (relative)', { stateDir: 'var/lib/positions' }, 'stateDir = "var/lib/positions"'],
    ['port', { port: 70000 }, 'port = 70000'],
    ['containerRuntime', { containerRuntime: 'dockr' }, 'containerRuntime = "dockr"'],
    ['journal', { journal: 'yes' }, 'journal = "yes"'],
    ['metadataEnrichment', { metadataEnrichment: 1 }, 'metadataEnrichment = 1'],
  ],
  MonitoringAgent: [
    ['port', { port: 0 }, 'port = 0'],
    ['timeCollector', { timeCollector: 'on' }, 'timeCollector = "on"'],
    ['tolerateAllTaints', { tolerateAllTaints: 1 }, 'tolerateAllTaints = 1'],
  ],
  GpuMonitor: [
    ['port', { port: 99999 }, 'port = 99999'],
    ['profilingMetrics', { profilingMetrics: 'on' }, 'profilingMetrics = "on"'],
  ],
  CsiNode: [
    ['driverName', { driverName: 'Bad_Driver' }, 'driverName = "Bad_Driver"'],
    ['nodeNameEnv', { nodeNameEnv: 'bad env' }, 'nodeNameEnv = "bad env"'],
    ['registrarImage', { registrarImage: 'BAD IMG' }, 'registrarImage = "BAD IMG"'],
    ['livenessProbeImage', { livenessProbeImage: 'BAD IMG' }, 'livenessProbeImage = "BAD IMG"'],
    ['sidecarResources', { sidecarResources: { ...resources, memoryLimit: 'lots' } }, 'sidecarResources.memoryLimit = "lots"'],
  ],
  CniPlugin: [
    ['healthPort', { healthPort: 70000 }, 'healthPort = 70000'],
    ['healthPort (missing)', { healthPort: undefined }, 'healthPort = undefined'],
    ['stateDir', { stateDir: '/etc/network' }, 'stateDir = "/etc/network"'],
    ['install.image', { install: { image: 'BAD IMG', command: ['x'] } }, 'install.image = "BAD IMG"'],
    ['install.command', { install: { command: [] } }, 'install.command = []'],
    [
      'install.resources',
      { install: { command: ['x'], resources: { ...resources, cpuRequest: 'x' } } },
      'install.resources.cpuRequest = "x"',
    ],
    ['image (the installer runs it too)', { install: { command: ['x'] }, image: 'BAD IMG' }, 'image = "BAD IMG"'],
    ['privilegedReason', { privileged: true, privilegedReason: 'short' }, 'privilegedReason = "short"'],
  ],
  SecurityAgent: [
    ['runtimeSocket', { runtimeSocket: '/etc/passwd' }, 'runtimeSocket = "/etc/passwd"'],
    ['runtimeSocket (relative)', { runtimeSocket: 'run/containerd/containerd.sock' }, 'runtimeSocket = "run/containerd/containerd.sock"'],
    [
      'complianceHostPaths',
      {
        mode: SecurityAgentMode.COMPLIANCE,
        complianceHostPaths: [HostPath.readOnly('/etc/kubernetes'), HostPath.readOnly('/var/lib/secret')],
      },
      'complianceHostPaths[1].path = "/var/lib/secret"',
    ],
    ['healthPort', { healthPort: -1 }, 'healthPort = -1'],
    ['privileged', { mode: SecurityAgentMode.COMPLIANCE, privileged: true, privilegedReason: 'reads every file' }, 'privileged = true'],
    ['mode', { mode: 'audit' }, 'mode = "audit"'],
  ],
};

const rows = PRESETS.flatMap(([preset, build, base]) =>
  [...SHARED, ...OWN[preset]].map(([field, props, at]) => [preset, field, build, { image, ...base, ...props }, at] as const),
);

test.each(rows)('GIVEN a %s with a bad %s THEN the problem is reported at that field', (_preset, _field, build, props, at) => {
  // WHEN
  const message = errorOf((s) => build(s, props));
  // THEN: reported at the user's field, and no problem is named by a position inside the preset's own parts.
  expect(message.split('\n')).toContainEqual(expect.stringMatching(new RegExp(`^    - ${escape(at)}: `)));
  expect(fieldsOf(message).filter((f) => /^(containers|initContainers)\b/.test(f))).toEqual([]);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
