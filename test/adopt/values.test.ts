import * as path from 'path';
import { ImportResult } from '../../src/adopt';
import { importFixture } from './support';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'import', 'values.yaml');
let result: ImportResult;

beforeAll(async () => {
  result = await importFixture(FIXTURE);
}, 60_000);

const objectOf = (kind: string) => result.synthesized.find((o: any) => o.kind === kind) as any;

describe('values arrive as they were meant', () => {
  test('GIVEN a quoted "true" in env, a label and ConfigMap data WHEN imported THEN each stays the string "true"', () => {
    const ds = objectOf('DaemonSet');
    expect(ds.spec.template.spec.containers[0].env.find((e: any) => e.name === 'ENABLED')).toEqual({ name: 'ENABLED', value: 'true' });
    expect(ds.metadata.labels['example.com/enabled']).toBe('true');
    expect(objectOf('ConfigMap').data.flag).toBe('true');
  });

  test('GIVEN empty values WHEN imported THEN they are kept, not dropped', () => {
    const ds = objectOf('DaemonSet');
    expect(ds.spec.template.spec.containers[0].env.find((e: any) => e.name === 'EMPTY')).toEqual({ name: 'EMPTY', value: '' });
    expect(objectOf('ConfigMap').data).toHaveProperty('empty', '');
    // A numeric-looking string keeps its leading zero.
    expect(ds.spec.template.spec.containers[0].env.find((e: any) => e.name === 'COUNT').value).toBe('010');
  });

  test('GIVEN a multi-line script with tabs, quotes and backslashes WHEN imported THEN the argument is byte for byte the same', () => {
    const args = objectOf('DaemonSet').spec.template.spec.containers[0].args;
    expect(args).toEqual([`set -eu\nprintf 'tab:\\there "quoted" \\\\backslash\\n'\necho "\${NODE_NAME:-unknown}" $((1 + 2))\n`]);
    expect(result.report.unexplained).toBe(0);
  });

  test('GIVEN names and label keys with dots WHEN imported THEN they work (module, class, ConfigMap reference, labels)', () => {
    expect([...result.files.keys()].sort()).toEqual(['edge-agent.ts', 'main.ts']);
    expect(result.files.get('main.ts')).toContain('new EdgeAgentService(chart, "edge.agent")');
    const ds = objectOf('DaemonSet');
    expect(ds.metadata.name).toBe('edge.agent');
    expect(ds.spec.template.metadata.labels['example.com/team']).toBe('platform');
    expect(ds.spec.template.spec.volumes.find((v: any) => v.name === 'config').configMap.name).toBe('agent.config');
    expect(result.report.unexplained).toBe(0);
  });

  test('GIVEN ConfigMap keys out of alphabetical order WHEN imported THEN the data is the same map', () => {
    expect(objectOf('ConfigMap').data).toEqual({ zeta: 'last', empty: '', alpha: 'first', flag: 'true' });
  });
});
