/**
 * The field types of the generated tables: spot checks against the Kubernetes API reference (written here by hand,
 * independent of the generator's sources), and `wrongTypeFields` on its own.
 */

import { KUBERNETES_VERSIONS, wrongTypeFields } from '../../src/k8s/api-fields';
import { isRfc3339 } from '../../src/k8s/api-fields/decode';
import { API_FIELD_DATA } from '../../src/k8s/api-fields/fields.generated';

/** The type a field has in the tables, without its version entry. */
function typeOf(type: string, field: string): string {
  const entry = API_FIELD_DATA.types[type][field];
  return typeof entry === 'string' ? entry : entry[0];
}

describe('the field tables give each field the type of the API reference', () => {
  test.each([
    ['core.v1.ContainerPort', 'containerPort', 'int32'],
    ['core.v1.ContainerPort', 'hostPort', 'int32'],
    ['core.v1.PodSpec', 'terminationGracePeriodSeconds', 'int64'],
    ['core.v1.PodSpec', 'activeDeadlineSeconds', 'int64'],
    ['core.v1.PodSpec', 'priority', 'int32'],
    ['core.v1.PodSpec', 'hostNetwork', 'boolean'],
    ['core.v1.PodSpec', 'nodeSelector', '{string'],
    ['core.v1.PodSecurityContext', 'runAsUser', 'int64'],
    ['core.v1.PodSecurityContext', 'supplementalGroups', '[int64'],
    ['core.v1.Toleration', 'tolerationSeconds', 'int64'],
    ['core.v1.Probe', 'periodSeconds', 'int32'],
    ['core.v1.HTTPGetAction', 'port', '%'],
    ['core.v1.ConfigMapVolumeSource', 'defaultMode', 'int32'],
    ['core.v1.EmptyDirVolumeSource', 'sizeLimit', 'quantity'],
    ['core.v1.Container', 'args', '[string'],
    ['core.v1.Secret', 'data', '{byte'],
    ['core.v1.ConfigMap', 'binaryData', '{byte'],
    ['apps.v1.DaemonSetSpec', 'minReadySeconds', 'int32'],
    ['apps.v1.RollingUpdateDaemonSet', 'maxUnavailable', '%'],
    ['meta.v1.ObjectMeta', 'labels', '{string'],
    ['meta.v1.ObjectMeta', 'creationTimestamp', 'time'],
    ['scheduling.v1.PriorityClass', 'value', 'int32'],
    ['kruise.apps.v1alpha1.RollingUpdateDaemonSet', 'partition', 'int32'],
  ])('%s.%s is %s', (type, field, expected) => {
    expect(typeOf(type, field)).toBe(expected);
  });

  test('no scalar is left without a type, and status stays free-form', () => {
    const scalars = new Set(['string', 'boolean', 'int32', 'int64', 'number', 'byte', 'quantity', 'time', '%', '*']);
    const untyped: string[] = [];
    for (const [type, fields] of Object.entries(API_FIELD_DATA.types)) {
      for (const field of Object.keys(fields)) {
        const leaf = typeOf(type, field).replace(/^[[{]+/, '');
        if (!scalars.has(leaf) && !Object.prototype.hasOwnProperty.call(API_FIELD_DATA.types, leaf))
          untyped.push(`${type}.${field}: ${leaf}`);
      }
    }
    expect(untyped).toEqual([]);
    expect(typeOf('apps.v1.DaemonSet', 'status')).toBe('*');
  });
});

describe('wrongTypeFields', () => {
  const ds = (spec: any): any => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'a' }, spec });

  test('names the path and the problem, the same for every version', () => {
    const object = ds({
      minReadySeconds: '5',
      template: { spec: { hostPID: 'yes', containers: [{ name: 'a', ports: [{ containerPort: -(2 ** 31) - 1 }] }] } },
    });
    for (const version of KUBERNETES_VERSIONS) {
      expect(wrongTypeFields(object, { version })).toEqual([
        { path: 'spec.minReadySeconds', problem: expect.stringMatching(/^is the string "5"; an int32 .* write 5 without quotes$/) },
        { path: 'spec.template.spec.hostPID', problem: expect.stringMatching(/^is the string "yes"; a boolean/) },
        {
          path: 'spec.template.spec.containers[0].ports[0].containerPort',
          problem: expect.stringMatching(/^is -2147483649, beyond the range/),
        },
      ]);
    }
  });

  test('GIVEN quantities and timestamps the API server cannot decode THEN each is a wrong type; the decodable ones are not', () => {
    const object = ds({
      template: {
        metadata: { creationTimestamp: null },
        spec: { overhead: { cpu: '1 core', memory: '', 'ephemeral-storage': ' 1Gi ' }, containers: [{ name: 'a' }] },
      },
    });
    object.metadata.creationTimestamp = '2024-01-02 15:04:05';
    expect(wrongTypeFields(object)).toEqual([
      {
        path: 'metadata.creationTimestamp',
        problem: expect.stringMatching(/^is the string "2024-01-02 15:04:05", not an RFC 3339 timestamp/),
      },
      { path: 'spec.template.spec.overhead.cpu', problem: expect.stringMatching(/^is the string "1 core", not a quantity/) },
      { path: 'spec.template.spec.overhead.memory', problem: expect.stringMatching(/^is the string "", not a quantity/) },
    ]);
  });

  test.each([
    ['2024-01-02T15:04:05Z', true],
    ['2024-01-02T15:04:05.999999Z', true],
    ['2024-02-29T00:00:00-08:00', true],
    ['2000-02-29T00:00:00Z', true],
    ['1900-02-29T00:00:00Z', false],
    ['2023-02-29T00:00:00Z', false],
    ['2024-04-31T00:00:00Z', false],
    ['2024-01-02T24:00:00Z', false],
    ['2024-01-02T15:04:60Z', false],
    ['2024-01-02t15:04:05z', false],
    ['2024-01-02T15:04:05', false],
    ['2024-01-02T15:04:05+0100', false],
    ['', false],
  ])('GIVEN the timestamp %j THEN it is RFC 3339 as Go parses it: %s', (text, expected) => {
    expect(isRfc3339(text)).toBe(expected);
  });

  test('hostile input: prototype names, cycles in free-form parts, non-objects', () => {
    const status: any = {};
    status.self = status;
    expect(wrongTypeFields({ ...ds({ constructor: 1 }), status })).toEqual([]);
    expect(wrongTypeFields(null)).toEqual([]);
    expect(wrongTypeFields({ apiVersion: 'apps/v1', kind: 'DaemonSet', spec: 'x' })).toEqual([
      { path: 'spec', problem: 'is the string "x"; an object goes here' },
    ]);
  });
});
