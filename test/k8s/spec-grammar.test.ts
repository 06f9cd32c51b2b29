import {
  BUILT_IN_PRIORITY_CLASSES,
  capabilityError,
  containerResourceNameError,
  DNS_CONFIG_LIMITS,
  DNS_POLICIES,
  editDistance,
  ENV_FIELD_PATHS,
  enumError,
  IMAGE_PULL_POLICIES,
  INT32_MAX,
  isHugePagesResourceName,
  isNativeResourceName,
  isReason,
  RESTART_POLICIES,
  closestMatch,
  configMapNameError,
  csiDriverNameError,
  dnsConfigError,
  dnsPolicyError,
  envFieldPathError,
  envFromPrefixError,
  envNameError,
  imagePullPolicyError,
  int32Error,
  isExtendedResourceName,
  isIpAddress,
  jsonText,
  labelSelectorRequirementError,
  LINUX_CAPABILITIES,
  nodeSelectorRequirementError,
  portNumberError,
  portReferenceError,
  priorityClassNameError,
  reasonError,
  renderValue,
  resourceRequirementsProblems,
  runtimeClassNameError,
  secretNameError,
  selectorMatches,
  showValue,
  sysctlNameError,
  tolerationProblems,
  volumeNameError,
} from '../../src/k8s';

describe('value rendering', () => {
  test.each<[unknown, string]>([
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    [undefined, 'undefined'],
    [2147483648, '2147483648'],
    [-0, '-0'],
    [null, 'null'],
    ['registry.example.com/a:latest', '"registry.example.com/a:latest"'],
    [[1, undefined, NaN], '[1,undefined,NaN]'],
    [{ a: NaN, 'b.c': 'x' }, '{"a":NaN,"b.c":"x"}'],
    [BigInt(5), '5n'],
  ])('renderValue(%p) is %s', (value, text) => expect(renderValue(value)).toBe(text));

  test('class instances show their fields, cycles and throwing getters do not throw', () => {
    class Thing {
      public readonly x = 1;
    }
    expect(renderValue(new Thing())).toBe('{"x":1}');
    const cyclic: any = { a: 1 };
    cyclic.self = cyclic;
    expect(renderValue(cyclic)).toContain('{…}');
    const hostile = {
      get boom(): never {
        throw new Error('no');
      },
    };
    expect(() => renderValue(hostile)).not.toThrow();
  });

  test('showValue quotes strings once and shortens long values', () => {
    expect(showValue('a')).toBe("'a'");
    expect(showValue(NaN)).toBe('NaN');
    expect(showValue('x'.repeat(100))).toHaveLength(80);
  });

  test('jsonText never throws', () => {
    const cyclic: any = {};
    cyclic.self = cyclic;
    expect(jsonText('a')).toBe('a');
    expect(jsonText(1)).toBe('1');
    expect(jsonText(cyclic)).toBe('[object Object]');
  });
});

describe('numbers and reasons', () => {
  test.each([0, 1, 2147483647])('int32 %p is valid', (v) => expect(int32Error(v)).toBeUndefined());
  test.each([-1, 2147483648, 1.5, NaN, Infinity, '1', undefined])('int32 %p is invalid', (v) => expect(int32Error(v)).toBeDefined());
  test('int32 honours a minimum', () => {
    expect(int32Error(0, 1)).toBeDefined();
    expect(int32Error(1, 1)).toBeUndefined();
  });
  test.each([1, 80, 65535])('port %p is valid', (v) => expect(portNumberError(v)).toBeUndefined());
  test.each([0, 65536, 80.5, '80', NaN])('port %p is invalid', (v) => expect(portNumberError(v)).toBeDefined());
  test('reasons need ten characters of text', () => {
    expect(reasonError('keeps read positions')).toBeUndefined();
    expect(reasonError(undefined)).toBe('no reason given');
    expect(reasonError('   short   ')).toBe('must be at least 10 characters (has 5)');
    expect(reasonError(42)).toBe('must be a string');
  });
  test('port references take numbers or port names', () => {
    expect(portReferenceError(8080)).toBeUndefined();
    expect(portReferenceError('metrics')).toBeUndefined();
    expect(portReferenceError(0)).toContain('between 1 and 65535');
    expect(portReferenceError('Bad_Name')).toContain("port name 'Bad_Name'");
    expect(portReferenceError(null)).toContain('number or a port name');
  });
});

describe('selectors and tolerations', () => {
  test('an empty-key Exists toleration tolerates everything and is valid', () => {
    expect(tolerationProblems({ operator: 'Exists' })).toEqual([]);
    expect(tolerationProblems({ key: '', operator: 'Exists' })).toEqual([]);
  });
  test('an empty key needs Exists', () => {
    expect(tolerationProblems({ operator: 'Equal', value: 'x' }).map((p) => p.field)).toContain('operator');
  });
  test('tolerationSeconds needs NoExecute and a whole number', () => {
    expect(tolerationProblems({ key: 'a', operator: 'Exists', tolerationSeconds: 5 })[0].field).toBe('tolerationSeconds');
    expect(tolerationProblems({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1.5 })[0].message).toContain(
      'whole number',
    );
    expect(tolerationProblems({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 })).toEqual([]);
  });
  test('bad keys, values, operators and effects are named', () => {
    const fields = tolerationProblems({ key: 'a b', operator: 'Equal', value: '-x', effect: 'NoScheduleX' }).map((p) => p.field);
    expect(fields).toEqual(['key', 'value', 'effect']);
    expect(tolerationProblems({ key: 'a', operator: 'Contains' })[0].message).toContain("'Contains' is not one of Equal, Exists");
  });
  test('label selector requirements', () => {
    expect(labelSelectorRequirementError({ key: 'a', operator: 'In', values: ['x'] })).toBeUndefined();
    expect(labelSelectorRequirementError({ key: 'a', operator: 'In', values: [] })).toContain('at least one value');
    expect(labelSelectorRequirementError({ key: 'a', operator: 'Exists', values: ['x'] })).toContain('no values');
    expect(labelSelectorRequirementError({ key: 'a', operator: 'Gt', values: ['1'] })).toContain('not one of');
  });
  test('node selector requirements: Gt/Lt take exactly one value, which the API server does not parse', () => {
    expect(nodeSelectorRequirementError({ key: 'a', operator: 'Gt', values: ['3'] }, false)).toBeUndefined();
    // accepted by ValidateNodeSelectorRequirement (the term never matches; node-selector-invalid warns)
    expect(nodeSelectorRequirementError({ key: 'a', operator: 'Gt', values: ['x'] }, false)).toBeUndefined();
    expect(nodeSelectorRequirementError({ key: 'a', operator: 'Lt', values: ['1', '2'] }, false)).toContain('exactly one value');
    expect(nodeSelectorRequirementError({ key: 'metadata.name', operator: 'In', values: ['n1'] }, true)).toBeUndefined();
  });
  test('selector matching', () => {
    expect(selectorMatches({ matchLabels: { a: '1' } }, { a: '1' })).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, { a: '1' })).toBe(false);
    expect(selectorMatches(undefined, {})).toBe(false);
    expect(selectorMatches({}, {})).toBe(true);
  });
});

describe('pod spec enumerations and DNS', () => {
  test.each(['Always', 'IfNotPresent', 'Never'])('imagePullPolicy %s is valid', (v) => expect(imagePullPolicyError(v)).toBeUndefined());
  test('imagePullPolicy is case-sensitive, with a suggestion', () => {
    expect(imagePullPolicyError('always')).toContain("did you mean 'Always'");
    expect(imagePullPolicyError(1)).toContain('must be one of Always, IfNotPresent, Never');
  });
  test.each(['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'])('dnsPolicy %s is valid', (v) =>
    expect(dnsPolicyError(v)).toBeUndefined(),
  );
  test.each(['ClusterFirstWithHostNetwork', 'clusterfirst', ''])('dnsPolicy %j is invalid', (v) => expect(dnsPolicyError(v)).toBeDefined());
  test('None needs a dnsConfig with a nameserver', () => {
    expect(dnsConfigError('None', undefined)).toContain('at least one nameserver');
    expect(dnsConfigError('None', { nameservers: ['10.0.0.10'], searches: ['svc.cluster.local'] })).toBeUndefined();
    expect(dnsConfigError('ClusterFirst', undefined)).toBeUndefined();
    expect(dnsConfigError('Default', { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9', '1.0.0.1'] })).toContain('at most 3');
    expect(dnsConfigError('Default', { nameservers: ['dns.example.com'] })).toContain('IP address');
    expect(dnsConfigError('Default', { searches: ['Bad_Domain'] })).toContain('search domain');
  });
  test.each(['10.0.0.1', '::1', 'fd00::10', '2001:db8::1:2:3:4', '::ffff:10.0.0.1'])('%s is an IP address', (v) =>
    expect(isIpAddress(v)).toBe(true),
  );
  test.each(['10.0.0.256', '1.2.3', 'a::b::c', 'host', '1:2:3:4:5:6:7:8:9'])('%s is not an IP address', (v) =>
    expect(isIpAddress(v)).toBe(false),
  );
});

describe('environment', () => {
  test.each([
    'metadata.name',
    'metadata.namespace',
    'metadata.uid',
    "metadata.labels['app.kubernetes.io/name']",
    "metadata.annotations['example.com/Owner']",
    'spec.nodeName',
    'spec.serviceAccountName',
    'status.hostIP',
    'status.hostIPs',
    'status.podIP',
    'status.podIPs',
  ])('fieldRef %s is allowed in env', (v) => expect(envFieldPathError(v)).toBeUndefined());
  test('a misspelt fieldRef is refused with a suggestion', () => {
    expect(envFieldPathError('spec.nodename')).toContain("did you mean 'spec.nodeName'");
    expect(envFieldPathError('metadata.labels')).toBeDefined();
    expect(envFieldPathError("metadata.labels['a b']")).toContain("subscript 'a b'");
    expect(envFieldPathError('status.phase')).toBeDefined();
  });
  test.each(['HOME', 'my.var', '_x', 'A-B'])('env name %s is valid for 1.28', (v) => expect(envNameError(v)).toBeUndefined());
  test.each(['', '1X', 'A=B', 'A B', 3])('env name %p is invalid for 1.28', (v) => expect(envNameError(v)).toBeDefined());
  test('envFrom prefixes', () => {
    expect(envFromPrefixError(undefined)).toBeUndefined();
    expect(envFromPrefixError('APP_')).toBeUndefined();
    expect(envFromPrefixError('A=')).toBeDefined();
    expect(envFromPrefixError('has space')).toBeDefined();
  });
});

describe('object names', () => {
  test('ConfigMap and Secret names are DNS-1123 subdomains', () => {
    expect(configMapNameError('agent-config')).toBeUndefined();
    expect(configMapNameError('Agent_Config')).toBeDefined();
    expect(secretNameError('')).toBeDefined();
    expect(secretNameError('tls.agent')).toBeUndefined();
  });
  test('volume names are DNS-1123 labels, never shortened', () => {
    expect(volumeNameError('a'.repeat(63))).toBeUndefined();
    expect(volumeNameError('a'.repeat(70))).toBe('must be at most 63 characters (has 70)');
  });
  test('priority and runtime class names', () => {
    expect(priorityClassNameError('system-node-critical')).toBeUndefined();
    expect(priorityClassNameError('Node_Critical')).toBeDefined();
    expect(runtimeClassNameError('gvisor')).toBeUndefined();
    expect(runtimeClassNameError('')).toBeDefined();
  });
  test('CSI driver names are at most 63 characters', () => {
    expect(csiDriverNameError('ebs.csi.aws.com')).toBeUndefined();
    expect(csiDriverNameError('EBS.csi.aws.com')).toBeUndefined();
    expect(csiDriverNameError('a.'.repeat(35) + 'b')).toBe('must be at most 63 characters (has 71)');
    expect(csiDriverNameError('bad_driver')).toBeDefined();
  });
  test.each(['net.ipv4.ip_forward', 'kernel.shm_rmid_forced', 'net/ipv4/conf/eth0.100/forwarding', 'vm.max_map_count'])(
    'sysctl %s is valid',
    (v) => expect(sysctlNameError(v)).toBeUndefined(),
  );
  test.each(['', 'Net.ipv4', 'net..ipv4', 'net.ipv4.', '_net', 'x'.repeat(254)])('sysctl %j is invalid', (v) =>
    expect(sysctlNameError(v)).toBeDefined(),
  );
});

describe('resources', () => {
  test('extended resources are prefixed, non-native names', () => {
    expect(isExtendedResourceName('nvidia.com/gpu')).toBe(true);
    expect(isExtendedResourceName('cpu')).toBe(false);
    expect(isExtendedResourceName('kubernetes.io/foo')).toBe(false);
  });
  test('valid requirements have no problems', () => {
    expect(
      resourceRequirementsProblems({ cpu: '100m', memory: '128Mi', 'nvidia.com/gpu': '1' }, { memory: '256Mi', 'nvidia.com/gpu': '1' }),
    ).toEqual([]);
    expect(resourceRequirementsProblems({ memory: '1Gi', 'hugepages-2Mi': '1Gi' }, { memory: '1Gi', 'hugepages-2Mi': '1Gi' })).toEqual([]);
  });
  test('extended resources are whole numbers, with a limit equal to the request', () => {
    const messages = (r: any, l: any): string[] => resourceRequirementsProblems(r, l).map((p) => `${p.field}: ${p.message}`);
    expect(messages({}, { 'nvidia.com/gpu': '0.5' })).toEqual([
      `limits['nvidia.com/gpu']: must be a whole number (extended resources are counted in units)`,
    ]);
    expect(messages({ 'nvidia.com/gpu': '1' }, {})[0]).toContain('needs a limit equal to its request');
    expect(messages({ 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '2' })[0]).toContain('must equal its limit');
  });
  test('requests above limits, bad quantities and names', () => {
    expect(resourceRequirementsProblems({ memory: '2Gi' }, { memory: '1Gi' })[0].message).toContain('above its limit');
    expect(resourceRequirementsProblems({ memory: '16GB' }, {})[0].message).toContain('must be a quantity');
    expect(resourceRequirementsProblems({ gpu: '1' }, { gpu: '1' })[0].message).toContain("resource name 'gpu'");
  });
  test('huge pages need cpu or memory', () => {
    expect(resourceRequirementsProblems({ 'hugepages-2Mi': '1Gi' }, { 'hugepages-2Mi': '1Gi' }).map((p) => p.message)).toEqual([
      'huge pages need a cpu or memory request or limit as well',
    ]);
    expect(resourceRequirementsProblems({ 'hugepages-x': '1Gi' }, {})[0].message).toContain('page size');
  });
});

describe('capabilities', () => {
  test('the Linux set has 41 capabilities', () => expect(LINUX_CAPABILITIES).toHaveLength(41));
  test.each(['NET_ADMIN', 'BPF', 'PERFMON', 'CHECKPOINT_RESTORE'])('%s is a capability', (v) => expect(capabilityError(v)).toBeUndefined());
  test('misspellings get a did-you-mean', () => {
    expect(capabilityError('NET_ADMN')).toBe("is not a Linux capability (did you mean 'NET_ADMIN'?)");
    expect(capabilityError('FROBNICATE')).toBe('is not a Linux capability');
  });
  test('CAP_ prefix, case and ALL', () => {
    expect(capabilityError('CAP_SYS_ADMIN')).toBe("must be written without the CAP_ prefix: 'SYS_ADMIN'");
    expect(capabilityError('net_raw')).toBe("must be written in upper case: 'NET_RAW'");
    expect(capabilityError('ALL')).toContain('only be dropped');
    expect(capabilityError(7)).toBe('must be a string');
  });
  test('closestMatch stays within the distance', () => expect(closestMatch('ZZZZ', ['A'])).toBeUndefined());
});

describe('enumerations and helpers', () => {
  test('the enumerations are those of the 1.28 API', () => {
    expect(IMAGE_PULL_POLICIES).toEqual(['Always', 'IfNotPresent', 'Never']);
    expect(DNS_POLICIES).toEqual(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']);
    expect(RESTART_POLICIES).toEqual(['Always', 'OnFailure', 'Never']);
    expect(DNS_CONFIG_LIMITS).toEqual({ nameservers: 3, searches: 32, searchLength: 2048 });
    expect(ENV_FIELD_PATHS).toContain('status.hostIPs');
    expect(BUILT_IN_PRIORITY_CLASSES).toEqual(['system-node-critical', 'system-cluster-critical']);
    expect(INT32_MAX).toBe(2 ** 31 - 1);
  });
  test('enumError suggests the right case and lists the values', () => {
    expect(enumError('tcp', ['TCP', 'UDP'])).toBe("must be one of TCP, UDP (case matters: did you mean 'TCP'?)");
    expect(enumError('X', ['TCP', 'UDP'])).toBe('must be one of TCP, UDP');
    expect(enumError('UDP', ['TCP', 'UDP'])).toBeUndefined();
  });
  test('isReason and editDistance', () => {
    expect(isReason('long enough reason')).toBe(true);
    expect(isReason('short')).toBe(false);
    expect(editDistance('NET_ADMN', 'NET_ADMIN')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
  test('resource name classes', () => {
    expect(isNativeResourceName('cpu')).toBe(true);
    expect(isNativeResourceName('example.com/foo')).toBe(false);
    expect(isHugePagesResourceName('hugepages-1Gi')).toBe(true);
    expect(containerResourceNameError('hugepages-1Gi')).toBeUndefined();
    expect(containerResourceNameError('kubernetes.io/foo')).toBeDefined();
    expect(containerResourceNameError('example.com/foo')).toBeUndefined();
  });
});
