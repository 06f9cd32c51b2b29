/**
 * The API field data (src/k8s/api-fields): generated from the installed sources and up to date, checked against
 * the independent `_schemas` validators of kubernetes-models, and used on everything the library emits.
 */

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import {
  editDistance,
  isKnownKind,
  KUBERNETES_VERSIONS,
  KubernetesVersion,
  kubernetesVersionError,
  unknownFields,
  versionProblems,
} from '../../src/k8s/api-fields';
import { API_FIELD_DATA } from '../../src/k8s/api-fields/fields.generated';

const ROOT = path.join(__dirname, '..', '..');

describe('the generated field data', () => {
  test('is up to date with its sources (regenerate with `npm run docs:api-fields`)', () => {
    // Run as a script: the generator formats with prettier, which needs native dynamic import (not available in jest).
    const r = spawnSync('npx', ['tsx', 'scripts/gen-api-fields.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  }, 120_000);

  test('knows every kind the examples emit except the Prometheus Operator custom resources', () => {
    const kinds = new Set<string>();
    for (const o of distObjects()) if (!isKnownKind(o)) kinds.add(`${o.apiVersion} ${o.kind}`);
    expect([...kinds].sort()).toEqual(['monitoring.coreos.com/v1 PodMonitor', 'monitoring.coreos.com/v1 PrometheusRule']);
  });

  // The kubernetes-models `_schemas` validators are compiled from the 1.33 OpenAPI document independently of its
  // declaration files: the property names each validator reads must be exactly the fields 1.33 has here.
  test.each([
    ['core.v1.PodSpec', 'IoK8sApiCoreV1PodSpec'],
    ['core.v1.Container', 'IoK8sApiCoreV1Container'],
    ['core.v1.PodSecurityContext', 'IoK8sApiCoreV1PodSecurityContext'],
    ['core.v1.SecurityContext', 'IoK8sApiCoreV1SecurityContext'],
    ['core.v1.Volume', 'IoK8sApiCoreV1Volume'],
    ['core.v1.VolumeMount', 'IoK8sApiCoreV1VolumeMount'],
    ['core.v1.Toleration', 'IoK8sApiCoreV1Toleration'],
    ['core.v1.LifecycleHandler', 'IoK8sApiCoreV1LifecycleHandler'],
    ['core.v1.ServiceSpec', 'IoK8sApiCoreV1ServiceSpec'],
    ['apps.v1.DaemonSetSpec', 'IoK8sApiAppsV1DaemonSetSpec'],
    ['apps.v1.RollingUpdateDaemonSet', 'IoK8sApiAppsV1RollingUpdateDaemonSet'],
  ])('%s has the fields the 1.33 schema validator checks', (type, schema) => {
    const code = fs.readFileSync(path.join(ROOT, 'node_modules', 'kubernetes-models', '_schemas', `${schema}.js`), 'utf8');
    const read = new Set<string>();
    for (const m of code.matchAll(/\bdata\.([A-Za-z_$][\w$]*)/g)) if (m[1] !== 'length') read.add(m[1]);
    const fields = API_FIELD_DATA.types[type];
    const in133 = Object.keys(fields).filter((f) => {
      const e = fields[f];
      return typeof e === 'string' || e[1] !== '';
    });
    expect(in133.sort()).toEqual([...read].sort());
  });
});

// cdk8s-plus-28 serializes its 1.28 types with one toJson function per type, keyed by JSON name: the fields 1.28 has
// here (read from the `@schema` tags of the declarations) must be exactly the keys it writes.
const CDK8S_JS = fs.readFileSync(path.join(ROOT, 'node_modules', 'cdk8s-plus-28', 'lib', 'imports', 'k8s.js'), 'utf8');
test.each([
  ['core.v1.PodSpec', 'PodSpec'],
  ['core.v1.Container', 'Container'],
  ['core.v1.PodSecurityContext', 'PodSecurityContext'],
  ['core.v1.SecurityContext', 'SecurityContext'],
  ['core.v1.SELinuxOptions', 'SeLinuxOptions'],
  ['core.v1.Volume', 'Volume'],
  ['core.v1.VolumeMount', 'VolumeMount'],
  ['core.v1.Toleration', 'Toleration'],
  ['meta.v1.ObjectMeta', 'ObjectMeta'],
  ['apps.v1.DaemonSetSpec', 'DaemonSetSpec'],
  ['apps.v1.RollingUpdateDaemonSet', 'RollingUpdateDaemonSet'],
  ['core.v1.ServiceSpec', 'ServiceSpec'],
])('%s has the fields cdk8s-plus-28 writes for 1.28', (type, cdk8sName) => {
  const body = new RegExp(`function toJson_${cdk8sName}\\(obj\\) \\{[\\s\\S]*?const result = \\{([\\s\\S]*?)\\n    \\};`).exec(CDK8S_JS);
  expect(body).not.toBeNull();
  const written = [...body![1].matchAll(/^\s+'([^']+)':/gm)].map((m) => m[1]);
  const fields = API_FIELD_DATA.types[type];
  const in128 = Object.keys(fields).filter((f) => typeof fields[f] === 'string' || fields[f][1] === '');
  expect(in128.sort()).toEqual(written.sort());
});

describe('kubernetesVersionError', () => {
  test('accepts exactly the supported minor versions', () => {
    expect(KUBERNETES_VERSIONS).toEqual(['1.28', '1.29', '1.30', '1.31', '1.32', '1.33']);
    for (const v of KUBERNETES_VERSIONS) expect(kubernetesVersionError(v)).toBeUndefined();
  });

  test.each([
    ['1.27', /is not a supported Kubernetes version \(one of 1\.28, 1\.29, 1\.30, 1\.31, 1\.32, 1\.33\)/],
    ['1.34', /is not a supported/],
    ['v1.30', /written as '1\.30'/],
    ['1.30.2', /written as '1\.30'/],
    [1.3, /the number 1\.3; write the version as a string/],
    [undefined, /must be a Kubernetes version string/],
    [{}, /must be a Kubernetes version string/],
  ])('%p', (value, message) => {
    expect(kubernetesVersionError(value)).toMatch(message);
  });

  test('unknownFields refuses a version outside the list', () => {
    expect(() => unknownFields({}, { version: '1.20' as KubernetesVersion })).toThrow(
      /^\[unknownFields\] invalid arguments \(1 problem\):\n {2}- unknownFields\(options\.version\) = "1\.20": .*\. Fix: pass a supported version/,
    );
  });
});

describe('did-you-mean', () => {
  const pod = (spec: any) => ({ apiVersion: 'v1', kind: 'Service', spec });

  test('a case-insensitive match wins over a closer edit', () => {
    // `Type` differs from `type` only in case; nothing else is suggested
    expect(unknownFields(pod({ Type: 'ClusterIP' }))).toEqual([{ path: 'spec.Type', field: 'Type', didYouMean: 'type' }]);
  });

  test('only fields of the target version are suggested', () => {
    // `trafficDistributon` is one edit from a 1.30 field: suggested on 1.30, not on 1.28
    expect(unknownFields(pod({ trafficDistributon: 'PreferClose' }))[0].didYouMean).toBeUndefined();
    expect(unknownFields(pod({ trafficDistributon: 'PreferClose' }), { version: KubernetesVersion.V1_30 })[0].didYouMean).toBe(
      'trafficDistribution',
    );
  });

  test('editDistance is the Levenshtein distance', () => {
    expect([editDistance('opertor', 'operator'), editDistance('', 'abc'), editDistance('kitten', 'sitting')]).toEqual([1, 3, 3]);
  });
});

describe('hostile input', () => {
  test('names of Object.prototype members are unknown fields like any other', () => {
    const ds = JSON.parse(
      '{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"valueOf":"","__proto__":{}},"spec":{"constructor":1,"toString":{"x":1}}}',
    );
    expect(unknownFields(ds).map((f) => f.path)).toEqual(['metadata.valueOf', 'metadata.__proto__', 'spec.constructor', 'spec.toString']);
    expect(unknownFields({ apiVersion: 'constructor', kind: '' })).toEqual([]);
  });
});

describe('paths', () => {
  test('a typo deep in a ResourceQuota is reported at its path', () => {
    const ds = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      spec: { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operater: 'In' }] } },
    };
    expect(unknownFields(ds).map((f) => f.path)).toEqual(['spec.scopeSelector.matchExpressions[0].operater']);
  });

  test('keys that are not identifiers are quoted, at the root and below indices of nested lists', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      'a.b': 1,
      spec: {
        template: {
          spec: {
            containers: [{ name: 'a' }, { name: 'b', "it's": 1, 'back\\slash': 2, '0': 3, volumeMounts: [{}, { name: 'v', 'x y': 4 }] }],
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [
                    {
                      matchExpressions: [
                        { key: 'k', operator: 'In' },
                        { key: 'k', opertor: 'In' },
                      ],
                    },
                  ],
                },
              },
            },
          },
        },
      },
    };
    expect(unknownFields(ds).map((f) => f.path)).toEqual([
      "['a.b']",
      "spec.template.spec.containers[1]['0']",
      "spec.template.spec.containers[1]['it\\'s']",
      "spec.template.spec.containers[1]['back\\\\slash']",
      "spec.template.spec.containers[1].volumeMounts[1]['x y']",
      'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].opertor',
    ]);
  });

  test('a hole in a list is skipped and the indices after it are kept', () => {
    const containers: any[] = [];
    containers[2] = { name: 'c', imagee: 'x' };
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', spec: { template: { spec: { containers } } } };
    expect(unknownFields(ds)).toEqual([{ path: 'spec.template.spec.containers[2].imagee', field: 'imagee', didYouMean: 'image' }]);
  });

  test('each version answers for itself, whichever version was asked first', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      spec: { template: { spec: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } } } },
    };
    const asked = [KubernetesVersion.V1_30, KubernetesVersion.V1_28, KubernetesVersion.V1_33, KubernetesVersion.V1_28].map((version) =>
      unknownFields(ds, { version }),
    );
    const reported = [{ path: 'spec.template.spec.securityContext.appArmorProfile', field: 'appArmorProfile', existsFrom: '1.30' }];
    expect(asked).toEqual([[], reported, [], reported]);
  });
});

function distObjects(): any[] {
  const out: any[] = [];
  // The single-cluster platform (Kubernetes 1.28); the fleet's folders are checked per cluster version in test/fleet.
  for (const f of fs.readdirSync(path.join(ROOT, 'dist')).filter((name) => name.endsWith('.k8s.yaml'))) {
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(ROOT, 'dist', f), 'utf8'), { version: '1.1' })) {
      const o = doc.toJS();
      if (o) out.push(o);
    }
  }
  return out;
}

describe('what the library emits', () => {
  test('every object of the examples (dist/) is accepted by Kubernetes 1.28', () => {
    const objects = distObjects();
    expect(objects.length).toBeGreaterThan(30);
    const problems = objects.flatMap((o) => versionProblems(o, KubernetesVersion.V1_28).map((p) => `${o.kind} ${o.metadata?.name}: ${p}`));
    expect(problems).toEqual([]);
  });
});
