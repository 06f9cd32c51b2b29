/**
 * `lint` reads and checks its input one object at a time: no object is kept once checked, and the objects that
 * cross-object rules look up (Namespaces, ServiceAccounts, RBAC) are read ahead into a small index, so that they
 * count wherever they sit in the input.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as v8 from 'v8';
import * as vm from 'vm';
import { stringify } from 'yaml';
import { ClusterChecks } from '../../src/cli/lint-clusters';
import { readManifests, SourcedObject, streamManifests } from '../../src/manifests';
import { checkManifests } from '../../src/policy/engine';
import { mayHoldCrossObject } from '../../src/policy/rbac';
import { compliantDaemonSet } from '../policy/support';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** `count` DaemonSets in namespace `logging` running as ServiceAccount `agent`, then that Namespace (no Pod Security labels). */
function stream(count: number): string {
  const docs: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const ds = compliantDaemonSet();
    ds.metadata.name = `agent-${i}`;
    ds.metadata.namespace = 'logging';
    ds.spec.template.spec.serviceAccountName = 'agent';
    docs.push(ds);
  }
  docs.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'logging' } });
  return docs.map((d) => stringify(d)).join('---\n');
}

/** Reads and checks `file` the way `lint` does, giving each object (and its index) to `seen` before it is checked. */
async function lintStream(file: string, seen: (o: SourcedObject, index: number) => void) {
  const checks = new ClusterChecks(undefined, undefined);
  let index = 0;
  const read = await streamManifests([file], async () => '', {
    keep: false,
    ahead: { mayHold: mayHoldCrossObject, add: (o) => checks.ahead(o) },
    onObject: (o) => {
      seen(o, index);
      checks.check(o, index++);
    },
  });
  return { read, checks, ...checks.report() };
}

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-stream-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('GIVEN 500 DaemonSet documents WHEN they are linted THEN the checked objects are not kept: the garbage collector frees them', async () => {
  const file = path.join(dir, 'many.yaml');
  fs.writeFileSync(file, stream(500));
  const refs: Array<WeakRef<object>> = [];
  const { read, report, checks } = await lintStream(file, (o) => void refs.push(new WeakRef(o.object)));
  expect(read.problems).toEqual([]);
  expect(refs).toHaveLength(501);
  expect(report.checkedObjects).toBe(500);
  // WeakRef targets stay alive to the end of the job that made them: collect in the next one.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const alive = refs.filter((r) => r.deref() !== undefined).length;
  // The Namespace stays in the index of the cross-object rules; of the DaemonSets, none needs to.
  expect(alive).toBeLessThanOrEqual(1);
  expect(refs[500].deref()).toMatchObject({ kind: 'Namespace' });
  expect(checks.report().report).toEqual(report);
}, 60_000);

test('GIVEN the Namespace and ServiceAccount after the DaemonSets WHEN linted one object at a time THEN the findings are those of a check of the whole list', async () => {
  const file = path.join(dir, 'cross.yaml');
  const docs = [stream(3), stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent', namespace: 'logging' } })];
  fs.writeFileSync(file, docs.join('---\n'));
  const { report } = await lintStream(file, () => undefined);
  const whole = checkManifests((await readManifests([file], async () => '')).objects.map((o) => o.object));
  expect(report).toEqual(whole);
  // The cross-object rules saw the Namespace and the ServiceAccount written after the DaemonSets.
  const rules = new Set(report.findings.map((f) => f.ruleId));
  expect(rules).toContain('namespace-pod-security-labels');
  expect(rules).not.toContain('service-account-missing');
});

test('GIVEN a ServiceAccount spelled with a YAML escape WHEN read ahead THEN it is found like any other (a text with a backslash may hold any kind)', async () => {
  const file = path.join(dir, 'escaped.yaml');
  const escaped = 'apiVersion: v1\nkind: "Service\\u0041ccount"\nmetadata: {name: agent, namespace: logging}\n';
  expect(mayHoldCrossObject(escaped.replace('\\', ''))).toBe(false);
  fs.writeFileSync(file, `${stream(1)}---\n${escaped}`);
  const { report } = await lintStream(file, () => undefined);
  expect(report.findings.map((f) => f.ruleId)).not.toContain('service-account-missing');
  const without = path.join(dir, 'without.yaml');
  fs.writeFileSync(without, stream(1));
  expect((await lintStream(without, () => undefined)).report.findings.map((f) => f.ruleId)).toContain('service-account-missing');
});
