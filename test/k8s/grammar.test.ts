import {
  dns1123LabelError,
  dns1123SubdomainError,
  envVarNameError,
  hostPathError,
  imageMatchesRegistry,
  imagePinError,
  intOrPercentError,
  isPathWithin,
  isZeroIntOrPercent,
  normalizeHostPath,
  labelValueError,
  parseImage,
  parseQuantity,
  portNameError,
  qualifiedNameError,
  quantityError,
  resourceRequirementsProblems,
} from '../../src/k8s';

describe('names and labels', () => {
  test.each(['a', 'fluent-bit', 'a1', '0abc', 'a'.repeat(63)])('DNS-1123 label %s is valid', (v) =>
    expect(dns1123LabelError(v)).toBeUndefined(),
  );
  test.each(['', 'A', '-a', 'a-', 'a_b', 'a.b', 'a'.repeat(64)])('DNS-1123 label %j is invalid', (v) =>
    expect(dns1123LabelError(v)).toBeDefined(),
  );
  test.each(['ebs.csi.aws.com', 'a', 'a-b.c'])('subdomain %s is valid', (v) => expect(dns1123SubdomainError(v)).toBeUndefined());
  test.each(['', 'a..b', '.a', 'A.b', 'a_b.c', 'x'.repeat(254)])('subdomain %j is invalid', (v) =>
    expect(dns1123SubdomainError(v)).toBeDefined(),
  );
  test.each(['app', 'app.kubernetes.io/name', 'nvidia.com/gpu.present', 'A_b.C-d', 'node-role.kubernetes.io/control-plane'])(
    'qualified name %s is valid',
    (v) => expect(qualifiedNameError(v)).toBeUndefined(),
  );
  test.each(['', 'a/b/c', '/a', 'a/', 'Bad.Prefix/a', '-a', 'a-', 'a b', 'x/' + 'a'.repeat(64)])('qualified name %j is invalid', (v) =>
    expect(qualifiedNameError(v)).toBeDefined(),
  );
  test.each(['', 'true', '3.1.9', 'a_b-c.d', 'v'.repeat(63)])('label value %j is valid', (v) => expect(labelValueError(v)).toBeUndefined());
  test.each(['-a', 'a-', 'a b', 'a/b', 'v'.repeat(64)])('label value %j is invalid', (v) => expect(labelValueError(v)).toBeDefined());
  test.each(['http', 'metrics-9100', 'a'.repeat(15)])('port name %s is valid', (v) => expect(portNameError(v)).toBeUndefined());
  test.each(['', '9100', 'a--b', '-a', 'a-', 'HTTP', 'a'.repeat(16)])('port name %j is invalid', (v) =>
    expect(portNameError(v)).toBeDefined(),
  );
  test.each(['NODE_NAME', 'a.b-c', '_x'])('env name %s is valid', (v) => expect(envVarNameError(v)).toBeUndefined());
  test.each(['', '1A', 'A B', 'A=B'])('env name %j is invalid', (v) => expect(envVarNameError(v)).toBeDefined());
});

describe('quantities', () => {
  test.each([
    ['100m', 0.1],
    ['1', 1],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['128Mi', 128 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['1k', 1000],
    ['1e3', 1000],
    ['2E', 2e18],
  ])('%s parses to %d', (text, value) => expect(parseQuantity(text)).toBeCloseTo(value));
  test.each(['', 'abc', '1h', '128MB', '1.2.3', 'Mi', '1 Gi'])('%j is not a quantity', (text) =>
    expect(parseQuantity(text)).toBeUndefined(),
  );
  test('negative quantities are refused', () => expect(quantityError('-1')).toMatch(/negative/));
  test('requests and limits: each value is parsed once for both its syntax and the comparison', () => {
    expect(
      resourceRequirementsProblems({ cpu: '2', memory: '1Gi', 'nvidia.com/gpu': '1' }, { cpu: '1', memory: 'lots', 'nvidia.com/gpu': 1.5 }),
    ).toEqual([
      { field: "limits['memory']", message: expect.stringMatching(/must be a quantity such as/) },
      { field: "limits['nvidia.com/gpu']", message: 'must be a whole number (extended resources are counted in units)' },
      { field: "requests['cpu']", message: '\'cpu\' request "2" is above its limit "1"' },
      {
        field: "requests['nvidia.com/gpu']",
        message: '\'nvidia.com/gpu\' request "1" must equal its limit 1.5 (it cannot be overcommitted)',
      },
    ]);
    expect(resourceRequirementsProblems({ cpu: true, memory: -1 }, undefined).map((p) => p.message)).toEqual([
      'must be a quantity string',
      'must not be negative',
    ]);
  });
});

describe('IntOrString', () => {
  test.each([0, 1, '0%', '10%', '100%'])('%j is valid', (v) => expect(intOrPercentError(v)).toBeUndefined());
  test.each([-1, 1.5, '5', 'abc', '10 %', '101%'])('%j is invalid', (v) => expect(intOrPercentError(v)).toBeDefined());
  test('zero detection', () => {
    expect([0, '0%', '00%', undefined].map((v) => isZeroIntOrPercent(v))).toEqual([true, true, true, true]);
    expect([1, '1%'].map((v) => isZeroIntOrPercent(v))).toEqual([false, false]);
  });
});

describe('images', () => {
  test('registry, repository, tag and digest are split like a container runtime does', () => {
    expect(parseImage('fluent/fluent-bit:3.1.9')).toEqual({
      registry: 'docker.io',
      repository: 'fluent/fluent-bit',
      tag: '3.1.9',
      digest: undefined,
    });
    expect(parseImage('localhost:5000/agent')).toEqual({
      registry: 'localhost:5000',
      repository: 'agent',
      tag: undefined,
      digest: undefined,
    });
    const digest = 'sha256:' + 'a'.repeat(64);
    expect(parseImage(`quay.io/prometheus/node-exporter:v1.8.2@${digest}`)).toEqual({
      registry: 'quay.io',
      repository: 'prometheus/node-exporter',
      tag: 'v1.8.2',
      digest,
    });
  });
  test.each(['nginx', 'nginx:latest', 'UPPER/case:1', 'a b:1', 'repo@sha256:short'])('%s is not pinned', (ref) =>
    expect(imagePinError(ref)).toBeDefined(),
  );
  test.each(['nginx:1.27', 'nginx@sha256:' + 'b'.repeat(64), 'nginx:latest@sha256:' + 'c'.repeat(64)])('%s is pinned', (ref) =>
    expect(imagePinError(ref)).toBeUndefined(),
  );
  test('registry allowlist matches on a path boundary only', () => {
    const allowed = ['registry.example.com', 'docker.io/fluent'];
    expect(imageMatchesRegistry('registry.example.com/x:1', allowed)).toBe(true);
    expect(imageMatchesRegistry('registry.example.com.evil.io/x:1', allowed)).toBe(false);
    expect(imageMatchesRegistry('fluent/fluent-bit:3', allowed)).toBe(true);
    expect(imageMatchesRegistry('fluentd/fluentd:1', allowed)).toBe(false);
    // One-element Docker Hub names are official (library) images; an upper-case first element is a host.
    expect(imageMatchesRegistry('flannel:v1', ['docker.io/flannel'])).toBe(false);
    expect(imageMatchesRegistry('flannel:v1', ['docker.io/library'])).toBe(true);
    expect(imageMatchesRegistry('docker.io/flannel/flannel:v0.25.6', ['docker.io/flannel'])).toBe(true);
    expect(imageMatchesRegistry('index.docker.io/flannel/flannel:v0.25.6', ['docker.io/flannel'])).toBe(true);
    expect(imageMatchesRegistry('Evil/agent:1.0', ['docker.io'])).toBe(false);
  });
});

describe('host paths', () => {
  test.each(['/', '/var/log', '/var/lib/kubelet/plugins/ebs.csi.aws.com'])('%s is valid', (p) => expect(hostPathError(p)).toBeUndefined());
  test.each(['', 'var/log', '/var/../etc', '/var//log', '/var/./log'])('%j is invalid', (p) => expect(hostPathError(p)).toBeDefined());
  test('containment is on path boundaries', () => {
    expect(isPathWithin('/var/log/pods', '/var/log')).toBe(true);
    expect(isPathWithin('/var/log', '/var/log/')).toBe(true);
    expect(isPathWithin('/var/logs', '/var/log')).toBe(false);
    expect(isPathWithin('/etc', '/')).toBe(true);
  });
  test.each([
    ['/', '/'],
    ['/var/log', '/var/log'],
    ['/var/log/', '/var/log'],
    ['/var/log///', '/var/log'],
    ['//', ''],
    ['var/', 'var'],
    ['/var/log/ ', '/var/log/ '],
  ])('%j normalized is %j (only trailing slashes go)', (p, normalized) => expect(normalizeHostPath(p)).toBe(normalized));
});
