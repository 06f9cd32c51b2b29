/**
 * The guardrails checked against their own App at synth: a node service the policies would deny fails synthesis,
 * naming the DaemonSet, the policy, the field and value, and the fix.
 */

import { Chart } from 'cdk8s';
import { HostPath, LogAgent, NodeService, NodeServiceGuardrails, NodeServiceGuardrailsProps, NodeServicesNamespace } from '../../src';
import { app, synthError } from '../support/app';

const FLUENT_BIT = 'cr.fluentbit.io/fluent/fluent-bit:3.1.9';

function guardrails(chart: Chart, props: Partial<NodeServiceGuardrailsProps>): NodeServiceGuardrails {
  return new NodeServiceGuardrails(chart, 'admission', { contact: '#platform-team', platformGroups: ['platform-admins'], ...props });
}

describe('NodeServiceGuardrails admit the App they belong to', () => {
  test('GIVEN allowlists that leave out the log agent beside it in the trusted namespace WHEN synthesized THEN synthesis fails naming the DaemonSet, the policy, the path, the registry and the fix', () => {
    const { app: a, chart } = app();
    const logs = new LogAgent(chart, 'logs', { name: 'fluent-bit', image: FLUENT_BIT });
    new NodeServicesNamespace(chart, 'ns', { services: [logs] });
    guardrails(chart, { hostPathAllowlist: ['/var/log'], registryAllowlist: ['docker.io'] });
    const message = synthError(a);
    expect(message).toContain(
      'DaemonSet node-services/fluent-bit [c/logs] would be denied by ValidatingAdmissionPolicy node-services-allowlists',
    );
    expect(message).toContain('"/var/lib/fluent-bit"');
    expect(message).toContain(`"${FLUENT_BIT}"`);
    expect(message).toContain('spec.template.spec.containers[0].image');
    expect(message).toMatch(/hostPath\S* .*spec\.template\.spec\.volumes\[\d+\]\.hostPath\.path/);
    expect(message).toContain('add the host path (or a parent) to hostPathAllowlist (/var/log)');
    expect(message).toContain("add the image's registry to registryAllowlist (docker.io)");
  });

  test('GIVEN allowlists that cover the log agent WHEN synthesized THEN it synthesizes', () => {
    const { app: a, chart, warnings } = app();
    const logs = new LogAgent(chart, 'logs', { name: 'fluent-bit', image: FLUENT_BIT });
    new NodeServicesNamespace(chart, 'ns', { services: [logs] });
    guardrails(chart, { hostPathAllowlist: ['/var/log', '/var/lib/fluent-bit'], registryAllowlist: ['cr.fluentbit.io/fluent'] });
    expect(() => a.synth()).not.toThrow();
    expect(warnings.join('')).not.toContain('guardrails-');
  });

  test('GIVEN the same allowlists in dry run (Warn, Audit) WHEN synthesized THEN it synthesizes and warns that admission would report the agent', () => {
    const { app: a, chart, warnings } = app();
    const logs = new LogAgent(chart, 'logs', { name: 'fluent-bit', image: FLUENT_BIT });
    new NodeServicesNamespace(chart, 'ns', { services: [logs] });
    guardrails(chart, { hostPathAllowlist: ['/var/log'], dryRun: true });
    expect(() => a.synth()).not.toThrow();
    expect(warnings.join('')).toContain(
      'guardrails-warn: DaemonSet node-services/fluent-bit [c/logs] would be reported by ValidatingAdmissionPolicy node-services-allowlists',
    );
  });

  test('GIVEN a node service with a hostPath in an untrusted namespace of the App WHEN synthesized THEN synthesis fails naming the host-access policy', () => {
    const { app: a, chart } = app();
    new NodeServicesNamespace(chart, 'ns', { name: 'team-a', trusted: false });
    new NodeService(chart, 'svc', {
      name: 'agent',
      namespace: 'team-a',
      containers: [{ name: 'agent', image: 'registry.example.com/agent:1', hostPaths: [HostPath.readOnly('/var/log')] }],
    });
    guardrails(chart, {});
    const message = synthError(a);
    expect(message).toContain('DaemonSet team-a/agent [c/svc] would be denied by ValidatingAdmissionPolicy node-services-host-access');
    expect(message).toContain('hostPathVolumes: hostPath volumes');
    expect(message).toContain('Fix: run it in a trusted namespace');
  });

  test('GIVEN a node service whose namespace the App does not define WHEN synthesized THEN it synthesizes and warns that it cannot be judged', () => {
    const { app: a, chart, warnings } = app();
    new LogAgent(chart, 'logs', { name: 'fluent-bit', image: FLUENT_BIT, namespace: 'logging' });
    guardrails(chart, { hostPathAllowlist: ['/var/log'] });
    expect(() => a.synth()).not.toThrow();
    expect(warnings.join('')).toContain('guardrails-namespace-unknown: DaemonSet logging/fluent-bit [c/logs] runs in namespace logging');
  });
});
