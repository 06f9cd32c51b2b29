/**
 * GIVEN arbitrary JSON values in any props of any construct THEN the construct either reports a NodeServiceError at synth, or
 * builds objects that pass every rule at error level and the Kubernetes 1.28 schema check. Never another exception.
 */

import * as fc from 'fast-check';
import { Construct } from 'constructs';
import {
  CniPlugin,
  CsiNode,
  GpuMonitor,
  LogAgent,
  MonitoringAgent,
  NodeService,
  NodeServiceAlerts,
  NodeServiceGuardrails,
  NodeServicesNamespace,
  SecurityAgent,
} from '../../src';
import { checkManifests } from '../../src/policy/engine';
import { propertiesOf } from '../support/props';
import { validateAll } from '../support/schema';
import { propsErrorIn, synth, testChart } from '../support/synth';

const image = 'registry.example.com/agent:1.2.3';

const constructs: Array<[string, string, Record<string, unknown>, (scope: Construct, props: any) => void]> = [
  ['NodeService', 'NodeServiceProps', { name: 'agent', containers: [{ name: 'agent', image }] }, (s, p) => new NodeService(s, 'x', p)],
  ['LogAgent', 'LogAgentProps', { image }, (s, p) => new LogAgent(s, 'x', p)],
  ['MonitoringAgent', 'MonitoringAgentProps', { image }, (s, p) => new MonitoringAgent(s, 'x', p)],
  ['GpuMonitor', 'GpuMonitorProps', { image }, (s, p) => new GpuMonitor(s, 'x', p)],
  ['CniPlugin', 'CniPluginProps', { image, install: { command: ['/install.sh'] }, healthPort: 8081 }, (s, p) => new CniPlugin(s, 'x', p)],
  ['CsiNode', 'CsiNodeProps', { image, driverName: 'ebs.csi.aws.com' }, (s, p) => new CsiNode(s, 'x', p)],
  ['SecurityAgent', 'SecurityAgentProps', { image }, (s, p) => new SecurityAgent(s, 'x', p)],
  ['NodeServicesNamespace', 'NodeServicesNamespaceProps', {}, (s, p) => new NodeServicesNamespace(s, 'x', p)],
  [
    'NodeServiceGuardrails',
    'NodeServiceGuardrailsProps',
    { contact: '#platform', platformGroups: ['platform-admins'] },
    (s, p) => new NodeServiceGuardrails(s, 'x', p),
  ],
  [
    'NodeServiceAlerts',
    'NodeServiceAlertsProps',
    { services: [{ name: 'fluent-bit', namespace: 'node-services', kind: 'log-agent' }] },
    (s, p) => new NodeServiceAlerts(s, 'x', p),
  ],
];

describe.each(constructs)('%s with arbitrary JSON in its props', (_, iface, base, build) => {
  const names = propertiesOf(iface);
  test('GIVEN any props THEN a NodeServiceError at synth or valid objects, never another exception', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), (overrides) => {
        const chart = testChart();
        build(chart, { ...base, ...overrides });
        if (propsErrorIn(chart)) return;
        const objects = synth(chart);
        validateAll(objects);
        const report = checkManifests(objects);
        const errors = report.findings.filter((f) => f.severity === 'error' && !f.suppressed).map((f) => `${f.ruleId}: ${f.message}`);
        expect(errors).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('NodeService with arbitrary JSON in its container fields', () => {
  const names = propertiesOf('ContainerSpec');
  test('GIVEN any container fields THEN a NodeServiceError or valid objects', () => {
    let built = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }), (overrides) => {
        const chart = testChart();
        new NodeService(chart, 'x', { name: 'agent', containers: [{ name: 'agent', image, ...overrides } as any] });
        if (propsErrorIn(chart)) return;
        built++;
        const objects = synth(chart);
        validateAll(objects);
        expect(checkManifests(objects).errorCount).toBe(0);
      }),
      { numRuns: 300 },
    );
    // Some inputs are valid (e.g. workingDir strings, booleans): the property also checks output, not only errors.
    expect(built).toBeGreaterThan(0);
  });
});
