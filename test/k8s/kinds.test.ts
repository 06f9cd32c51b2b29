import { isContainerRuntimeSocket, isHostPathAllowed, isSensitiveHostPath, kindProfile, NodeServiceKind } from '../../src/policy/kinds';

describe('kind profiles', () => {
  test('GIVEN the log-agent profile THEN reads under /var/log and writes one dir below /var/lib only', () => {
    const p = kindProfile(NodeServiceKind.LOG_AGENT);
    expect(isHostPathAllowed(p, '/var/log/pods', false)).toBe(true);
    expect(isHostPathAllowed(p, '/var/log', true)).toBe(false);
    expect(isHostPathAllowed(p, '/var/lib/fluent-bit', true)).toBe(true);
    expect(isHostPathAllowed(p, '/var/lib', true)).toBe(false);
    expect(isHostPathAllowed(p, '/etc', false)).toBe(false);
  });

  test('GIVEN the generic or an unknown kind THEN there is no allowlist', () => {
    expect(isHostPathAllowed(kindProfile(undefined), '/etc', true)).toBe(true);
    expect(kindProfile('something-else').kind).toBe(NodeServiceKind.GENERIC);
  });

  test('GIVEN the monitoring profile THEN everything is readable and nothing writable', () => {
    const p = kindProfile(NodeServiceKind.MONITORING_AGENT);
    expect(isHostPathAllowed(p, '/proc', false)).toBe(true);
    expect(isHostPathAllowed(p, '/tmp', true)).toBe(false);
  });

  test('runtime sockets and sensitive paths are recognized', () => {
    expect(isContainerRuntimeSocket('/run/containerd/containerd.sock')).toBe(true);
    expect(isContainerRuntimeSocket('/var/run')).toBe(true);
    expect(isContainerRuntimeSocket('/var/log')).toBe(false);
    expect(isSensitiveHostPath('/etc')).toBe(true);
    expect(isSensitiveHostPath('/etc/cni/net.d')).toBe(false);
  });
});
