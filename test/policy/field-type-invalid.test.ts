/**
 * The `field-type-invalid` rule: values the API server cannot decode into their field's type (a JSON type or an
 * integer width that does not fit), at any depth, for every supported version, through the engine and
 * `node-services lint` (with the line and column of the value).
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { KUBERNETES_VERSIONS } from '../../src/k8s/api-fields';
import { RuleConfig } from '../../src/policy/config';
import { checkManifests, Finding } from '../../src/policy/engine';
import { runCli } from '../support/cli';
import { compliantDaemonSet, mainContainer, podOf } from './support';

const POD = 'spec.template.spec';
const C0 = `${POD}.containers[0]`;

function typeFindings(objects: any[], config?: RuleConfig): Finding[] {
  return checkManifests(objects, config).findings.filter((f) => f.ruleId === 'field-type-invalid');
}

function tempFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-type-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('field-type-invalid: what the API server cannot decode', () => {
  test.each<[string, (ds: any) => void, string, RegExp]>([
    [
      'a string where a boolean goes',
      (ds) => (podOf(ds).hostNetwork = 'true'),
      `${POD}.hostNetwork`,
      /is the string "true"; a boolean .* write true without quotes/,
    ],
    [
      'a string where an int64 goes',
      (ds) => (podOf(ds).terminationGracePeriodSeconds = '10'),
      `${POD}.terminationGracePeriodSeconds`,
      /is the string "10"; an int64 .* write 10 without quotes/,
    ],
    [
      'an int32 past 2^31-1',
      (ds) => (mainContainer(ds).ports[0].containerPort = 3000000000),
      `${C0}.ports[0].containerPort`,
      /is 3000000000, beyond the range of an int32/,
    ],
    [
      'minReadySeconds past int32',
      (ds) => (ds.spec.minReadySeconds = 2 ** 31),
      'spec.minReadySeconds',
      /is 2147483648, beyond the range of an int32/,
    ],
    ['a fraction where an integer goes', (ds) => (ds.spec.minReadySeconds = 1.5), 'spec.minReadySeconds', /is 1\.5, not an integer/],
    [
      'an int64 past 2^63',
      (ds) => (podOf(ds).securityContext.runAsUser = 2 ** 64),
      `${POD}.securityContext.runAsUser`,
      /beyond the range of an int64/,
    ],
    [
      'a number where a string goes',
      (ds) => (mainContainer(ds).image = 3),
      `${C0}.image`,
      /is the number 3; a string goes here \(quote it/,
    ],
    [
      'a boolean label value',
      (ds) => (ds.metadata.labels.enabled = true),
      'metadata.labels.enabled',
      /is the boolean true; a string goes here/,
    ],
    ['a number in a list of strings', (ds) => (mainContainer(ds).args = ['--port', 8080]), `${C0}.args[1]`, /is the number 8080/],
    [
      'an object where a list goes',
      (ds) => (podOf(ds).tolerations = { key: 'a' }),
      `${POD}.tolerations`,
      /is an object .*; a list goes here/,
    ],
    [
      'a list where an object goes',
      (ds) => (mainContainer(ds).securityContext = []),
      `${C0}.securityContext`,
      /is a list \[\]; an object goes here/,
    ],
    [
      'a string where a map goes',
      (ds) => (podOf(ds).nodeSelector = 'gpu=true'),
      `${POD}.nodeSelector`,
      /is the string "gpu=true"; a map goes here/,
    ],
    [
      'a boolean where an int-or-string goes',
      (ds) => (ds.spec.updateStrategy.rollingUpdate.maxUnavailable = true),
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      /is the boolean true; an int32 or a string/,
    ],
    [
      'an int-or-string past int32',
      (ds) => (ds.spec.updateStrategy.rollingUpdate.maxSurge = 2 ** 32),
      'spec.updateStrategy.rollingUpdate.maxSurge',
      /beyond the range of an int32/,
    ],
    [
      'a boolean where a quantity goes',
      (ds) => (mainContainer(ds).resources.requests.cpu = false),
      `${C0}.resources.requests.cpu`,
      /is the boolean false; a quantity/,
    ],
    ['a number where a timestamp goes', (ds) => (ds.metadata.creationTimestamp = 0), 'metadata.creationTimestamp', /a timestamp string/],
    ['Infinity (YAML .inf)', (ds) => (podOf(ds).activeDeadlineSeconds = Infinity), `${POD}.activeDeadlineSeconds`, /not a JSON number/],
  ])('%s is an error at the field', (_what, mutate, fieldPath, message) => {
    // GIVEN the compliant DaemonSet with one value of the wrong type
    const ds = compliantDaemonSet();
    mutate(ds);
    // WHEN checked for each supported version
    for (const kubernetesVersion of KUBERNETES_VERSIONS) {
      const findings = typeFindings([ds], { kubernetesVersion });
      // THEN one unsuppressible error names the field, the value and the type that goes there
      expect(findings.map((f) => [f.path, f.severity, f.category])).toEqual([[fieldPath, 'error', 'api-validity']]);
      expect(findings[0].message).toMatch(/^field "/);
      expect(findings[0].message).toMatch(message);
    }
  });

  test('a Secret value that is not base64, and a ConfigMap binaryData value', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { ok: 'aGVsbG8=', bad: 'hello world' } };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, binaryData: { b: 'not base64!' }, data: { n: 1 } };
    expect(typeFindings([secret, cm]).map((f) => [f.object.kind, f.path])).toEqual([
      ['Secret', 'data.bad'],
      ['ConfigMap', 'binaryData.b'],
      ['ConfigMap', 'data.n'],
    ]);
  });

  test('the suppression annotation does not silence it', () => {
    const ds = compliantDaemonSet();
    ds.metadata.annotations['ignore-check.node-services.cdk8s.io/field-type-invalid'] = 'the cluster converts the value anyway';
    podOf(ds).hostNetwork = 'true';
    expect(typeFindings([ds]).map((f) => f.suppressed)).toEqual([false]);
  });

  test('a value the API server cannot decode is reported once, not again by the grammar rules', () => {
    // GIVEN values that node-selector-invalid and port-invalid would also find fault with
    const ds = compliantDaemonSet();
    podOf(ds).nodeSelector = { 'example.com/gpu': true };
    mainContainer(ds).ports[0].containerPort = 3000000000;
    // WHEN checked THEN each is one finding of field-type-invalid
    const atThose = checkManifests([ds]).findings.filter((f) => f.path.includes('example.com/gpu') || f.path.endsWith('containerPort'));
    expect(atThose.map((f) => f.ruleId)).toEqual(['field-type-invalid', 'field-type-invalid']);
    // and a port that decodes but is out of the port range is still a port-invalid error
    mainContainer(ds).ports[0].containerPort = 70000;
    expect(
      checkManifests([ds])
        .findings.filter((f) => f.path.endsWith('containerPort'))
        .map((f) => f.ruleId),
    ).toEqual(['port-invalid']);
  });
});

describe('field-type-invalid: what the API server accepts', () => {
  test('null everywhere, int-or-string as either, quantities as numbers, the int32 and int64 limits', () => {
    const ds = compliantDaemonSet();
    ds.metadata.creationTimestamp = null;
    ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: '10%', maxSurge: 0 };
    ds.spec.minReadySeconds = 2 ** 31 - 1;
    ds.spec.revisionHistoryLimit = -(2 ** 31);
    Object.assign(podOf(ds), { hostNetwork: null, nodeSelector: null, activeDeadlineSeconds: null });
    podOf(ds).securityContext.runAsUser = 2 ** 62;
    // 9223372036854775807 (2^63-1) reads as the double 2^63: accepted, it may be the largest int64
    podOf(ds).terminationGracePeriodSeconds = Number('9223372036854775807');
    mainContainer(ds).resources = { requests: { cpu: 0.5, memory: 134217728 }, limits: { memory: '256Mi' } };
    mainContainer(ds).readinessProbe.httpGet.port = 2020;
    mainContainer(ds).args = [null];
    expect(typeFindings([ds])).toEqual([]);
  });

  test('status, custom resources and non-objects are not looked into', () => {
    const ds = compliantDaemonSet();
    ds.status = { numberReady: 'three', conditions: {} };
    const cr = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { name: 'm' }, spec: { podMetricsEndpoints: 'x' } };
    expect(typeFindings([ds, cr, 'text', null, 42])).toEqual([]);
  });
});

describe('node-services lint reports the value at its line and column', () => {
  // YAML 1.1 as kubectl reads it: `yes` unquoted is a boolean, `0644` the number 420, "10" a string
  const manifest = [
    'apiVersion: apps/v1',
    'kind: DaemonSet',
    'metadata: {name: agent, namespace: logging}',
    'spec:',
    '  selector: {matchLabels: {app: agent}}',
    '  template:',
    '    metadata: {labels: {app: agent}}',
    '    spec:',
    '      hostNetwork: "true"',
    '      terminationGracePeriodSeconds: "10"',
    '      nodeSelector:',
    '        example.com/gpu: yes',
    '      containers:',
    '        - name: agent',
    '          image: busybox:1.36',
    '          ports:',
    '            - containerPort: 3000000000',
    '      volumes:',
    '        - name: conf',
    '          configMap: {name: conf, defaultMode: 0644}',
    '',
  ].join('\n');

  test('each value of the wrong type is an error at file:line:col, and the run fails', async () => {
    const file = tempFile('agent.yaml', manifest);
    const run = await runCli(['lint', file]);
    expect(run.code).toBe(1);
    const lines = run.out.split('\n');
    const at = (fieldPath: string): string | undefined => {
      const i = lines.findIndex((l) => /^ {2}error +field-type-invalid/.test(l) && l.trim().endsWith(fieldPath));
      return i < 0 ? undefined : /^\s+(\S+:\d+:\d+):/.exec(lines[i + 1])?.[1];
    };
    expect([
      at(`${POD}.hostNetwork`),
      at(`${POD}.terminationGracePeriodSeconds`),
      at(`${POD}.nodeSelector['example.com/gpu']`),
      at(`${POD}.containers[0].ports[0].containerPort`),
    ]).toEqual([`${file}:9:7`, `${file}:10:7`, `${file}:12:9`, `${file}:17:15`]);
    // the octal mode is the number 420, an int32: not reported
    expect(run.out).not.toMatch(/defaultMode/);
  });

  test('the JSON report carries the same findings for every --kubernetes-version', async () => {
    const file = tempFile('agent.yaml', manifest);
    for (const v of KUBERNETES_VERSIONS) {
      const run = await runCli(['lint', '-f', 'json', '--kubernetes-version', v, file]);
      const paths = (JSON.parse(run.out).findings as Finding[]).filter((f) => f.ruleId === 'field-type-invalid').map((f) => f.path);
      expect(paths).toEqual([
        `${POD}.hostNetwork`,
        `${POD}.terminationGracePeriodSeconds`,
        `${POD}.nodeSelector['example.com/gpu']`,
        `${POD}.containers[0].ports[0].containerPort`,
      ]);
    }
  });
});
