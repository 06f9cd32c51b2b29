import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Canary, CONFIG_HASH_ANNOTATION, ConfigHash, EnvSource, LogAgent, Mount, NodeService, NodeServiceProps, Probe } from '../../src';
import { validateAll } from '../support/schema';
import { errorOf, only, synth, testChart } from '../support/synth';

const main = {
  name: 'main',
  image: 'registry.example.com/agent:1.2.3',
  ports: [{ name: 'http', containerPort: 8080 }],
  readiness: Probe.httpGet('/ready', 'http'),
};

function service(scope: Construct, props: Partial<NodeServiceProps> & { containers?: NodeServiceProps['containers'] }): NodeService {
  return new NodeService(scope, 'svc', { name: 'agent', containers: [main], ...props });
}

function hashes(objects: any[]): { [name: string]: string | undefined } {
  const out: { [name: string]: string | undefined } = {};
  for (const ds of objects.filter((o) => o.kind === 'DaemonSet')) {
    out[ds.metadata.name] = ds.spec.template.metadata.annotations?.[CONFIG_HASH_ANNOTATION];
  }
  return out;
}

/** Synthesizes a service mounting a cdk8s-plus ConfigMap with `data`, returning the pod template's hash. */
function hashFor(
  data: { [key: string]: string },
  extra: (cm: kplus.ConfigMap) => Partial<NodeServiceProps> = () => ({}),
): string | undefined {
  const chart = testChart();
  const cm = new kplus.ConfigMap(chart, 'config', { metadata: { name: 'agent-config' }, data });
  service(chart, { containers: [{ ...main, mounts: [Mount.fromConfigMap(cm, '/etc/agent')] }], ...extra(cm) });
  const objects = synth(chart);
  validateAll(objects);
  return hashes(objects).agent;
}

describe('config hash', () => {
  test('a mounted ConfigMap of the app puts a sha256 of its content on the pod template', () => {
    const hash = hashFor({ 'agent.conf': 'level=info' });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('changing the content changes the hash; the same content gives the same hash', () => {
    const a = hashFor({ 'agent.conf': 'level=info' });
    expect(hashFor({ 'agent.conf': 'level=info' })).toBe(a);
    expect(hashFor({ 'agent.conf': 'level=debug' })).not.toBe(a);
  });

  test('content added after the service was created counts (the hash is computed at synth)', () => {
    const chart = testChart();
    const cm = new kplus.ConfigMap(chart, 'config', { metadata: { name: 'agent-config' } });
    service(chart, { containers: [{ ...main, envFrom: [EnvSource.fromConfigMap(cm)] }] });
    const before = hashes(synth(chart)).agent;
    cm.addData('LEVEL', 'debug');
    const after = hashes(synth(chart)).agent;
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    expect(after).toMatch(/^[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
  });

  test('metadata changes of the ConfigMap do not roll pods', () => {
    const a = hashFor({ k: 'v' });
    const b = hashFor({ k: 'v' }, (cm) => {
      cm.metadata.addLabel('team', 'platform');
      return {};
    });
    expect(b).toBe(a);
  });

  test('Secrets (cdk8s-plus and raw) and raw ConfigMaps are hashed; references by name are not', () => {
    const chart = testChart();
    const secret = new kplus.Secret(chart, 'tls', { metadata: { name: 'agent-tls' }, stringData: { key: 'one' } });
    const raw = new ApiObject(chart, 'raw', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw-config' }, data: { a: '1' } });
    const rawSecret = new ApiObject(chart, 'raw-secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'raw-secret' }, data: {} });
    service(chart, {
      containers: [
        {
          ...main,
          mounts: [
            Mount.fromSecret(secret, '/etc/tls'),
            Mount.fromConfigMapObject(raw, '/etc/raw'),
            Mount.configMap('external', '/etc/ext'),
          ],
          envFrom: [EnvSource.fromSecretObject(rawSecret)],
        },
      ],
    });
    const first = hashes(synth(chart)).agent;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    raw.addJsonPatch(JsonPatch.replace('/data/a', '2'));
    expect(hashes(synth(chart)).agent).not.toBe(first);
  });

  test('no annotation without an in-app ConfigMap or Secret, nor when disabled', () => {
    const chart = testChart();
    service(chart, { containers: [{ ...main, mounts: [Mount.configMap('external', '/etc/ext')] }] });
    expect(hashes(synth(chart)).agent).toBeUndefined();
    expect(hashFor({ k: 'v' }, () => ({ configHash: ConfigHash.disabled() }))).toBeUndefined();
  });

  test('ConfigHash.of adds a value for configuration managed outside the app', () => {
    const chart = testChart();
    service(chart, { configHash: ConfigHash.of('v1') });
    const v1 = hashes(synth(chart)).agent;
    const chart2 = testChart();
    service(chart2, { configHash: ConfigHash.of('v2') });
    expect(v1).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes(synth(chart2)).agent).not.toBe(v1);
    expect(hashFor({ k: 'v' }, () => ({ configHash: ConfigHash.of('v1') }))).not.toBe(hashFor({ k: 'v' }));
  });

  test('a canary can mount the new configuration first: its own hash, the stable one unchanged', () => {
    const chart = testChart();
    const v1 = new kplus.ConfigMap(chart, 'v1', { metadata: { name: 'agent-config-v1' }, data: { k: 'one' } });
    const v2 = new kplus.ConfigMap(chart, 'v2', { metadata: { name: 'agent-config-v2' }, data: { k: 'two' } });
    service(chart, {
      containers: [{ ...main, mounts: [Mount.fromConfigMap(v1, '/etc/agent'), Mount.emptyDir('/tmp')] }],
      canary: Canary.byNodeLabel('example.com/canary', 'true', { mounts: [Mount.fromConfigMap(v2, '/etc/agent')] }),
    });
    const objects = synth(chart);
    validateAll(objects);
    const h = hashes(objects);
    const plain = testChart();
    const same = new kplus.ConfigMap(plain, 'v1', { metadata: { name: 'agent-config-v1' }, data: { k: 'one' } });
    service(plain, { containers: [{ ...main, mounts: [Mount.fromConfigMap(same, '/etc/agent'), Mount.emptyDir('/tmp')] }] });
    expect(h.agent).toBe(hashes(synth(plain)).agent);
    expect(h['agent-canary']).toMatch(/^[0-9a-f]{64}$/);
    expect(h['agent-canary']).not.toBe(h.agent);
    const canary = objects.find((o) => o.metadata.name === 'agent-canary');
    const volumes = canary.spec.template.spec.volumes.map((v: any) => v.configMap?.name ?? 'emptyDir');
    expect(volumes.sort()).toEqual(['agent-config-v2', 'emptyDir']);
    const stable = only(
      objects.filter((o) => o.metadata.name === 'agent'),
      'DaemonSet',
    );
    expect(stable.spec.template.spec.volumes.map((v: any) => v.configMap?.name).filter(Boolean)).toEqual(['agent-config-v1']);
  });

  test('every preset takes configHash', () => {
    const chart = testChart();
    const cm = new kplus.ConfigMap(chart, 'config', { metadata: { name: 'fluent-bit-config' }, data: { a: 'b' } });
    new LogAgent(chart, 'logs', {
      name: 'fluent-bit',
      image: 'fluent/fluent-bit:3.1.9',
      mounts: [Mount.fromConfigMap(cm, '/fluent-bit/etc')],
    });
    new LogAgent(chart, 'logs2', {
      name: 'vector',
      image: 'timberio/vector:0.40.0-debian',
      mounts: [Mount.fromConfigMap(cm, '/etc/vector')],
      configHash: ConfigHash.disabled(),
    });
    const h = hashes(synth(chart));
    expect(h['fluent-bit']).toMatch(/^[0-9a-f]{64}$/);
    expect(h.vector).toBeUndefined();
  });
});

describe('config hash: wrong input', () => {
  test('a raw object of another kind', () => {
    const message = errorOf((scope) => {
      const secret = new ApiObject(scope, 'raw', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'agent-tls' } });
      service(scope, {
        containers: [
          {
            ...main,
            mounts: [Mount.fromConfigMapObject(secret, '/etc/agent')],
            envFrom: [
              EnvSource.fromSecretObject(
                new ApiObject(scope, 'dep', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } }),
              ),
            ],
          },
        ],
      });
    });
    expect(message).toContain('containers[0].mounts[0]');
    expect(message).toContain('is a v1 Secret, not a v1 ConfigMap');
    expect(message).toContain('containers[0].envFrom[0]');
    expect(message).toContain('is a apps/v1 Deployment, not a v1 Secret');
  });

  test('a factory given no object names its argument', () => {
    expect(() => Mount.fromConfigMap(undefined as any, '/etc/agent')).toThrow('- Mount.fromConfigMap(configMap) = undefined: is required');
  });

  test('configHash of the wrong type, ConfigHash.of(""), and a podAnnotation it would overwrite', () => {
    expect(errorOf((scope) => service(scope, { configHash: 'auto' as any }))).toMatch(
      /configHash.*ConfigHash.auto\(\), ConfigHash.disabled\(\) or ConfigHash.of\(value\)/s,
    );
    expect(errorOf((scope) => service(scope, { configHash: ConfigHash.of('') }))).toContain('ConfigHash.of needs a non-empty value');
    expect(
      errorOf((scope) => service(scope, { podAnnotations: { [CONFIG_HASH_ANNOTATION]: 'x' }, configHash: ConfigHash.of('v1') })),
    ).toContain(`podAnnotations["${CONFIG_HASH_ANNOTATION}"]`);
  });

  test('canary mounts of the wrong type, and a bad canary mount named as written', () => {
    expect(() => Canary.byNodeLabel('example.com/canary', 'true', { mounts: 'x' as any })).toThrow(
      '- Canary.byNodeLabel(options.mounts) = "x": must be a list of Mount',
    );
    const message = errorOf((scope) =>
      service(scope, { canary: Canary.byNodeLabel('example.com/canary', 'true', { mounts: [Mount.configMap('Bad_Name', '/etc/agent')] }) }),
    );
    expect(message).toContain('canary.mounts[0].configMap');
  });
});
