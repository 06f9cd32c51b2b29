import { Construct } from 'constructs';
import {
  ContainerSpec,
  HostPath,
  Mount,
  MountPropagation,
  NodeRequirement,
  NodeService,
  NodeServiceError,
  NodeServiceProps,
  Probe,
  Rollout,
  SeccompProfile,
  TaintEffect,
  Toleration,
} from '../../src';
import { errorOf, propsErrorOf } from '../support/synth';

const container: ContainerSpec = { name: 'main', image: 'registry.example.com/agent:1.2.3' };

function rejected(props: Partial<NodeServiceProps>, container2: Partial<ContainerSpec> = {}): string {
  return errorOf((scope: Construct) => {
    new NodeService(scope, 'svc', { name: 'agent', containers: [{ ...container, ...container2 }], ...props });
  });
}

/**
 * Each case: GIVEN bad props WHEN constructing THEN the error names the construct path, the field, the bad value and a fix.
 */
const cases: Array<[string, Partial<NodeServiceProps>, Partial<ContainerSpec>, string, string]> = [
  ['invalid name', { name: 'Fluent_Bit' }, {}, 'name', '"Fluent_Bit"'],
  ['name too long', { name: 'a'.repeat(64) }, {}, 'name', 'at most 63'],
  ['default namespace', { namespace: 'default' }, {}, 'namespace', '"default"'],
  ['invalid namespace', { namespace: 'Platform' }, {}, 'namespace', '"Platform"'],
  ['invalid label key', { labels: { 'bad key!': 'x' } }, {}, 'labels["bad key!"]', '"bad key!"'],
  ['invalid label value', { labels: { team: 'not valid!' } }, {}, 'labels["team"]', '"not valid!"'],
  ['invalid node selector key', { nodeSelector: { 'a/b/c': 'x' } }, {}, 'nodeSelector["a/b/c"]', '"a/b/c"'],
  [
    'malformed cpu quantity',
    {},
    { resources: { cpuRequest: 'lots', memoryRequest: '128Mi', memoryLimit: '256Mi' } },
    'containers[0].resources.cpuRequest',
    '"lots"',
  ],
  [
    'malformed memory quantity',
    {},
    { resources: { cpuRequest: '100m', memoryRequest: '128MB', memoryLimit: '256Mi' } },
    'containers[0].resources.memoryRequest',
    '"128MB"',
  ],
  [
    'memory request above limit',
    {},
    { resources: { cpuRequest: '100m', memoryRequest: '512Mi', memoryLimit: '256Mi' } },
    'containers[0].resources.memoryRequest',
    'request "512Mi" is above its limit "256Mi"',
  ],
  [
    'cpu request above limit',
    {},
    { resources: { cpuRequest: '2', memoryRequest: '128Mi', memoryLimit: '256Mi', cpuLimit: '500m' } },
    'containers[0].resources.cpuRequest',
    'is above its limit',
  ],
  ['both maxUnavailable and maxSurge zero', { rollout: Rollout.maxUnavailable(0) }, {}, 'rollout', 'cannot both be zero'],
  ['maxUnavailable over 100%', { rollout: Rollout.maxUnavailablePercent(150) }, {}, 'rollout.maxUnavailable', 'more than 100%'],
  ['negative maxSurge', { rollout: Rollout.surge(-1) }, {}, 'rollout.maxSurge', '-1'],
  ['OnDelete without a reason', { rollout: Rollout.onDelete('ops') }, {}, 'rollout', 'reason'],
  ['relative host path', {}, { hostPaths: [HostPath.readOnly('var/log')] }, 'containers[0].hostPaths[0].path', '"var/log"'],
  ['host path with ..', {}, { hostPaths: [HostPath.readOnly('/var/log/../../etc')] }, 'containers[0].hostPaths[0].path', "'..'"],
  [
    'writable host path without a reason',
    {},
    { hostPaths: [HostPath.writable('/var/lib/x', { reason: '' })] },
    'containers[0].hostPaths[0].reason',
    'reason',
  ],
  [
    'Bidirectional without privileged',
    {},
    { hostPaths: [HostPath.readOnly('/var/lib/kubelet', { propagation: MountPropagation.BIDIRECTIONAL })] },
    'containers[0].hostPaths[0].propagation',
    'privileged',
  ],
  ['privileged without a reason', {}, { privileged: true }, 'containers[0].privilegedReason', 'no reason'],
  ['capability with CAP_ prefix', {}, { capabilities: ['CAP_NET_ADMIN'] }, 'containers[0].capabilities[0]', 'NET_ADMIN'],
  ['capability ALL', {}, { capabilities: ['ALL'] }, 'containers[0].capabilities[0]', '"ALL"'],
  ['untagged image', {}, { image: 'fluent/fluent-bit' }, 'containers[0].image', 'no tag or digest'],
  ['latest image', {}, { image: 'fluent/fluent-bit:latest' }, 'containers[0].image', ':latest'],
  ['invalid image reference', {}, { image: 'Fluent Bit:1' }, 'containers[0].image', 'not a valid image reference'],
  [
    'port name over 15 characters',
    {},
    { ports: [{ name: 'metrics-endpoint-x', containerPort: 9100 }] },
    'containers[0].ports[0].name',
    'at most 15',
  ],
  [
    'duplicate port names',
    {},
    {
      ports: [
        { name: 'http', containerPort: 80 },
        { name: 'http', containerPort: 81 },
      ],
    },
    'containers[0].ports[1].name',
    'used twice',
  ],
  ['port out of range', {}, { ports: [{ name: 'http', containerPort: 70000 }] }, 'containers[0].ports[0].containerPort', '70000'],
  [
    'hostNetwork host port differs',
    { hostNetwork: true },
    { ports: [{ name: 'http', containerPort: 80, hostPort: 8080 }] },
    'containers[0].ports[0].hostPort',
    'must equal containerPort',
  ],
  ['probe on an undeclared port', {}, { readiness: Probe.httpGet('/ready', 'health') }, 'containers[0].readiness.port', '"health"'],
  ['invalid env name', {}, { env: { '1BAD': 'x' } }, 'containers[0].env["1BAD"]', '"1BAD"'],
  [
    'duplicate mount path',
    {},
    { hostPaths: [HostPath.readOnly('/var/log')], mounts: [Mount.emptyDir('/var/log')] },
    'containers[0].mounts[0].mountPath',
    'mounted twice',
  ],
  ['bad emptyDir size', {}, { mounts: [Mount.emptyDir('/tmp', { sizeLimit: 'big' })] }, 'containers[0].mounts[0].sizeLimit', '"big"'],
  [
    'toleration seconds without NoExecute',
    { tolerations: [Toleration.exists('x', { tolerationSeconds: 5 })] },
    {},
    'tolerations[0].tolerationSeconds',
    'NoExecute',
  ],
  [
    'toleration with invalid key',
    { tolerations: [Toleration.exists('bad key', { effect: TaintEffect.NO_SCHEDULE })] },
    {},
    'tolerations[0].key',
    '"bad key"',
  ],
  [
    'affinity In without values',
    { nodeAffinity: [{ requirements: [NodeRequirement.in('zone', [])] }] },
    {},
    'nodeAffinity[0].requirements[0].values',
    'at least one value',
  ],
  [
    'node requirement with an invalid key, beside a user affinity term',
    {
      nodeAffinity: [{ requirements: [NodeRequirement.exists('zone')] }, { requirements: [NodeRequirement.exists('rack')] }],
      nodeRequirements: [NodeRequirement.exists('ok'), NodeRequirement.in('bad key!', ['x'])],
    },
    {},
    'nodeRequirements[1].key',
    '"bad key!"',
  ],
  ['empty affinity term', { nodeAffinity: [{ requirements: [] }] }, {}, 'nodeAffinity[0]', 'matches no node'],
  ['invalid priority class', { priorityClassName: 'System Critical' }, {}, 'priorityClassName', '"System Critical"'],
  [
    'short suppression reason',
    { suppressions: [{ ruleId: 'no-node-local-need', reason: 'ok' }] },
    {},
    'suppressions[0].reason',
    '10 characters',
  ],
  ['negative grace period', { terminationGracePeriodSeconds: -1 }, {}, 'terminationGracePeriodSeconds', '-1'],
  ['no containers', { containers: [] }, {}, 'containers', 'at least one container'],
  [
    'Unconfined seccomp without a reason',
    {},
    { seccompProfile: SeccompProfile.unconfined('') },
    'containers[0].seccompProfile.reason',
    'reason',
  ],
  [
    'Localhost seccomp with an absolute path',
    {},
    { seccompProfile: SeccompProfile.localhost('/etc/seccomp/x.json') },
    'containers[0].seccompProfile',
    '"/etc/seccomp/x.json"',
  ],
];

describe('NodeService rejects bad props before any YAML', () => {
  test.each(cases)('%s', (_title, props, c, field, valueOrProblem) => {
    const message = rejected(props, c);
    expect(message).toContain('[test/svc]');
    expect(message).toContain(`- ${field} = `);
    expect(message).toContain(valueOrProblem);
    expect(message).toMatch(/Fix: \S/);
  });

  test('GIVEN a bad nodeRequirements entry ANDed into two affinity terms THEN it is reported once, at the field the user wrote', () => {
    const message = rejected({
      nodeAffinity: [{ requirements: [NodeRequirement.exists('zone')] }, { requirements: [NodeRequirement.exists('rack')] }],
      nodeRequirements: [NodeRequirement.in('bad key!', ['x'])],
    });
    expect(message.match(/- nodeRequirements\[0\]\.key = "bad key!"/g)).toHaveLength(1);
    expect(message).not.toContain('nodeAffinity[');
  });

  test('GIVEN duplicate container names across init and main containers THEN the error names both', () => {
    const message = errorOf((scope) => {
      new NodeService(scope, 'svc', { name: 'agent', containers: [container], initContainers: [{ ...container }] });
    });
    expect(message).toContain('initContainers[0].name = "main"');
    expect(message).toContain('duplicates containers[0].name');
  });

  test('GIVEN several problems WHEN synthesized THEN all are reported at once in a NodeServiceError', () => {
    const error = propsErrorOf(
      (scope) =>
        new NodeService(scope, 'svc', { name: 'Bad_Name', namespace: 'default', containers: [{ name: 'main', image: 'x:latest' }] }),
    );
    expect(error).toBeInstanceOf(NodeServiceError);
    const err = error as NodeServiceError;
    expect(err.constructPath).toBe('test/svc');
    expect(err.problems.map((p) => p.field)).toEqual(['name', 'namespace', 'containers[0].image']);
  });
});

describe('factory arguments', () => {
  test('GIVEN Rollout.maxUnavailable("10 percent") from plain JavaScript THEN the factory names its argument', () => {
    expect(() => Rollout.maxUnavailable('10 percent' as any)).toThrow(
      '- Rollout.maxUnavailable(count) = "10 percent": must be a finite number. Fix: pass a count of pods; for a percentage, use Rollout.maxUnavailablePercent(10)',
    );
  });
});
