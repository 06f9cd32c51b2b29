/**
 * The input contract, by input class (docs/input-contract.md): for every input the CLI reads (`--nodes`, `--pods`,
 * the manifests, cluster folders, standard input), what each command refuses (exit 2, one message naming the input,
 * what was expected and the fix), reports, or accepts. Table-driven over commands × classes.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Run, runCli } from '../support/cli';
import { daemonSet, node, podOf } from '../day2/support';

// Many in-process CLI runs on a shared machine: time is not what these tests check.
jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.relative(process.cwd(), path.join(ROOT, 'dist'));
const FIXTURE_NODES = path.relative(process.cwd(), path.join(ROOT, 'test/fixtures/nodes.json'));

const NODE_TABLE = [
  'NAME         STATUS   ROLES           AGE   VERSION',
  'cp-1         Ready    control-plane   41d   v1.28.3',
  'worker-a-1   Ready    <none>          41d   v1.28.3',
  '',
].join('\n');
const NODE_WIDE_TABLE = [
  'NAME   STATUS   ROLES    AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION   CONTAINER-RUNTIME',
  'n1     Ready    <none>   4d    v1.30.2   10.0.0.4      <none>        Ubuntu 22.04.4 LTS   6.5.0-1018       containerd://1.7.2',
  '',
].join('\n');
const POD_TABLE = [
  'NAMESPACE     NAME               READY   STATUS    RESTARTS   AGE',
  'kube-system   kube-proxy-x2x4l   1/1     Running   0          41d',
  '',
].join('\n');
const DS_TABLE = [
  'NAME    DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE',
  'agent   3         3         3       3            3           <none>          2d',
  '',
].join('\n');

const AGENT = daemonSet();
const AGENT_NEW = daemonSet({ image: 'registry.example.com/agent:1.1.0' });
const NODES = [node('n1'), node('n2')];

let dir: string;
/** Writes `content` (text, or objects as JSON) to `name` in the scratch folder; returns its path. */
function write(name: string, content: string | Buffer | unknown): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2));
  return file;
}

let MANIFESTS: string;
let MANIFESTS_NEW: string;
let GOOD_NODES: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'input-contract-'));
  MANIFESTS = write('ds/agent.json', AGENT);
  MANIFESTS_NEW = write('ds-new/agent.json', AGENT_NEW);
  GOOD_NODES = write('nodes/good.json', { apiVersion: 'v1', kind: 'List', items: NODES });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** One refused class: the input's content and what the message must say. */
interface Refused {
  readonly name: string;
  readonly content: () => string | Buffer | unknown;
  readonly message: RegExp;
}

function expectRefused(run: Run, message: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.err).toMatch(message);
  // one message, never a stack trace, never a verdict
  expect(run.err.trim().split('\n')).toHaveLength(1);
  expect(run.err).not.toMatch(/\n\s+at /);
  expect(run.out).toBe('');
}

const NODES_FIX = /--nodes expects Node objects .*: kubectl get nodes -o json > nodes\.json$/m;

/** Every class of `--nodes` input that is refused. */
const REFUSED_NODES: readonly Refused[] = [
  { name: 'an empty file (0 bytes)', content: () => '', message: /: is empty \(0 bytes\); did the command that wrote it fail\?/ },
  { name: 'only whitespace', content: () => ' \n\n\t\n', message: /: holds no objects \(only whitespace or comments\)/ },
  {
    name: 'only comments',
    content: () => '# the prod nodes\n# (none yet)\n',
    message: /: holds no objects \(only whitespace or comments\)/,
  },
  {
    name: 'a kubectl get nodes table',
    content: () => NODE_TABLE,
    message: /:1: a table printed by kubectl get nodes, not Node objects \(kubectl prints objects only with -o json\)/,
  },
  {
    name: 'a kubectl get nodes -o wide table',
    content: () => NODE_WIDE_TABLE,
    message: /:1: a table printed by kubectl get nodes, not Node objects/,
  },
  { name: 'a kubectl get pods table', content: () => POD_TABLE, message: /:1: a table printed by kubectl get pods, not Node objects/ },
  {
    name: "kubectl's error text instead of JSON",
    content: () => 'error: You must be logged in to the server (Unauthorized)\n',
    message: /:1: a Node has no metadata\.name/,
  },
  { name: 'a JSON number', content: () => '42\n', message: /:1: not a Kubernetes object: a number \(42\)/ },
  { name: 'a list of strings', content: () => '["n1", "n2"]', message: /:1: not a Kubernetes object: a string/ },
  {
    name: 'a list of numbers in items',
    content: () => '{"kind": "List", "items": [\n  1,\n  2\n]}',
    message: /:2: not a Kubernetes object: a number, true, false or null/,
  },
  {
    name: 'a plain text line',
    content: () => 'Unable to connect to the server\n',
    message: /:1: not a Kubernetes object: a string \("Unable to connect to the server"\)/,
  },
  {
    name: 'truncated JSON',
    content: () => JSON.stringify({ kind: 'List', items: NODES }).slice(0, 150),
    message: /: invalid JSON: the input ends inside a value/,
  },
  {
    name: 'DaemonSets (a DaemonSetList)',
    content: () => ({ apiVersion: 'apps/v1', kind: 'DaemonSetList', items: [AGENT] }),
    message: /:\d+: DaemonSet "agent", not a Node; --nodes expects Node objects/,
  },
  {
    name: 'an empty DaemonSetList',
    content: () => ({ apiVersion: 'apps/v1', kind: 'DaemonSetList', items: [] }),
    message: /:1: a DaemonSetList, not a list of Nodes/,
  },
  { name: 'pods', content: () => ({ kind: 'List', items: [podOf(AGENT, 'n1')] }), message: /:\d+: Pod "agent-n1", not a Node/ },
  {
    name: 'a node listed twice',
    content: () => ({ kind: 'List', items: [node('n1'), node('n2'), node('n1')] }),
    message: /node "n1" is listed twice \(first at line \d+\); a node list is one cluster's nodes, each once/,
  },
  {
    name: 'a node without a name',
    content: () => ({ kind: 'List', items: [{ kind: 'Node', metadata: {} }] }),
    message: /a Node has no metadata\.name/,
  },
  { name: 'an object that is not a node', content: () => 'replicas: 3\nimage: nginx\n', message: /:1: a Node has no metadata\.name/ },
];

/** The commands that read `--nodes`, given the nodes input. */
const NODE_READERS: ReadonlyArray<readonly [string, (nodes: string) => string[]]> = [
  ['coverage', (nodes) => ['coverage', '--nodes', nodes, MANIFESTS]],
  ['coverage --fail-on-missing', (nodes) => ['coverage', '--fail-on-missing', '--nodes', nodes, MANIFESTS]],
  ['plan', (nodes) => ['plan', MANIFESTS_NEW, '--old', MANIFESTS, '--nodes', nodes]],
  ['diff', (nodes) => ['diff', MANIFESTS, MANIFESTS_NEW, '--nodes', nodes]],
];

describe('--nodes: refused inputs, for every command that reads nodes', () => {
  const cases = NODE_READERS.flatMap(([command, args]) => REFUSED_NODES.map((c) => [command, c.name, args, c] as const));
  test.each(cases)('%s: %s is refused (exit 2, one message with the fix)', async (_command, _name, args, c) => {
    // GIVEN a nodes file of the class
    const file = write(`nodes/${c.name.replace(/\W+/g, '-')}.json`, c.content());
    // WHEN a command reads it as --nodes
    const run = await runCli(args(file));
    // THEN it is refused with the file, what is wrong, and how to write the nodes
    expectRefused(run, c.message);
    expect(run.err).toContain(file);
    expect(run.err).toMatch(NODES_FIX);
  });

  test.each(REFUSED_NODES.map((c) => [c.name, c] as const))('standard input: %s is refused as well', async (_name, c) => {
    const content = c.content();
    const stdin = typeof content === 'string' ? content : Buffer.isBuffer(content) ? content.toString() : JSON.stringify(content, null, 2);
    const run = await runCli(['coverage', '--fail-on-missing', '--nodes', '-', MANIFESTS], { stdin });
    expectRefused(run, c.message);
  });

  test.each([
    ['coverage --clusters', (nodes: string, clusters: string) => ['coverage', '--clusters', clusters, '--nodes', nodes]],
    ['plan --clusters', (nodes: string, clusters: string) => ['plan', '--clusters', clusters, '--old', clusters, '--nodes', nodes]],
  ])("%s: a cluster's nodes file is held to the same contract", async (_name, args) => {
    // GIVEN a fleet of one cluster whose nodes file is a kubectl table
    const clusters = path.dirname(write('fleet-a/clusters/a/agent.json', AGENT));
    const nodes = path.dirname(write('fleet-a/nodes/a.json', NODE_TABLE));
    // WHEN the fleet is read THEN the cluster's nodes file is refused
    expectRefused(await runCli(args(nodes, path.dirname(clusters))), /a\.json:1: a table printed by kubectl get nodes, not Node objects/);
  });
});

describe('--nodes: accepted inputs', () => {
  test.each([
    ['an empty List', { apiVersion: 'v1', kind: 'List', items: [] }],
    ['an empty NodeList in YAML', 'apiVersion: v1\nkind: NodeList\nitems: []\n'],
  ])('%s is a valid answer (0 nodes); a gate over it has nothing to check (exit 2)', async (name, content) => {
    const file = write(`nodes/${name.replace(/\W+/g, '-')}.json`, content);
    // WHEN coverage and plan read it without a gate THEN they answer over 0 nodes
    const coverage = await runCli(['coverage', '--nodes', file, MANIFESTS]);
    expect(coverage.code).toBe(0);
    expect(coverage.out).toContain('1 DaemonSet over 0 nodes');
    expect((await runCli(['plan', MANIFESTS_NEW, '--old', MANIFESTS, '--nodes', file])).code).toBe(0);
    // AND with a gate they refuse: a gate that passes on nothing is no gate
    for (const args of [
      ['coverage', '--fail-on-missing', '--nodes', file, MANIFESTS],
      ['coverage', '--fail-on-budget', '--nodes', file, MANIFESTS],
      ['plan', '--fail-on-stuck', MANIFESTS_NEW, '--old', MANIFESTS, '--nodes', file],
    ]) {
      expectRefused(
        await runCli(args),
        new RegExp(`^node-services: nothing to check: no nodes in --nodes .*\\(an empty list\\); --fail-on-\\w+ gives no verdict`),
      );
    }
  });

  test('nodes without a kind (hand-written), JSON lines and YAML documents are read', async () => {
    const bare = NODES.map(({ kind: _kind, ...rest }) => rest);
    for (const [name, content] of [
      ['bare.json', JSON.stringify(bare)],
      ['lines.json', NODES.map((n) => JSON.stringify(n)).join('\n')],
      ['docs.yaml', NODES.map((n) => JSON.stringify(n)).join('\n---\n')],
    ]) {
      const run = await runCli(['coverage', '--fail-on-missing', '--nodes', write(`nodes/${name}`, content), MANIFESTS]);
      expect([name, run.code, run.err]).toEqual([name, 0, '']);
      expect(run.out).toContain('1 DaemonSet over 2 nodes');
    }
  });
});

describe('--pods: refused inputs', () => {
  const REFUSED_PODS: readonly Refused[] = [
    {
      name: 'an empty file',
      content: () => '',
      message: /: is empty \(0 bytes\).*--pods expects Pod objects .*kubectl get pods -A -o json > pods\.json/,
    },
    { name: 'a kubectl get pods table', content: () => POD_TABLE, message: /:1: a table printed by kubectl get pods, not Pod objects/ },
    {
      name: 'nodes',
      content: () => ({ kind: 'NodeList', items: NODES }),
      message: /:\d+: Node "n1", not a Pod; --pods expects Pod objects/,
    },
    { name: 'an empty NodeList', content: () => ({ kind: 'NodeList', items: [] }), message: /:1: a NodeList, not a list of Pods/ },
    { name: 'text', content: () => 'No resources found\n', message: /:1: not a Kubernetes object: a string \("No resources found"\)/ },
    {
      name: 'a pod without a name',
      content: () => ({ kind: 'List', items: [{ kind: 'Pod', spec: { nodeName: 'n1' } }] }),
      message: /a Pod has no metadata\.name/,
    },
    {
      name: 'a pod listed twice',
      content: () => ({ kind: 'List', items: [podOf(AGENT, 'n1'), podOf(AGENT, 'n2'), podOf(AGENT, 'n1')] }),
      message: /pod "ops\/agent-n1" is listed twice \(first at line \d+\); a pod list is one cluster's pods, each once/,
    },
  ];
  const readers: ReadonlyArray<readonly [string, (pods: string) => string[]]> = [
    ['coverage', (pods) => ['coverage', '--nodes', GOOD_NODES, '--pods', pods, MANIFESTS]],
    ['plan', (pods) => ['plan', MANIFESTS_NEW, '--nodes', GOOD_NODES, '--pods', pods]],
    ['diff', (pods) => ['diff', MANIFESTS, MANIFESTS_NEW, '--nodes', GOOD_NODES, '--pods', pods]],
  ];
  test.each(readers.flatMap(([command, args]) => REFUSED_PODS.map((c) => [command, c.name, args, c] as const)))(
    '%s: %s is refused',
    async (_command, _name, args, c) => {
      const file = write(`pods/${c.name.replace(/\W+/g, '-')}.json`, c.content());
      expectRefused(await runCli(args(file)), c.message);
    },
  );
  test('GIVEN pods of the same name in two namespaces WHEN coverage reads them THEN they are two pods: accepted', async () => {
    const other = { ...podOf(AGENT, 'n1'), metadata: { ...podOf(AGENT, 'n1').metadata, namespace: 'other' } };
    const file = write('pods/two-namespaces.json', { kind: 'List', items: [podOf(AGENT, 'n1'), other] });
    const run = await runCli(['coverage', '--nodes', GOOD_NODES, '--pods', file, MANIFESTS]);
    expect(run.err).not.toContain('listed twice');
    expect(run.code).not.toBe(2);
  });

  test('an empty pod list is a valid answer', async () => {
    const file = write('pods/empty-list.json', { kind: 'List', items: [] });
    const run = await runCli(['coverage', '--fail-on-missing', '--nodes', GOOD_NODES, '--pods', file, MANIFESTS]);
    expect([run.code, run.err]).toEqual([0, '']);
  });
});

/** The commands that read manifests, given one manifests input (the new version, for diff and plan). */
const MANIFEST_READERS: ReadonlyArray<readonly [string, (manifests: string) => string[]]> = [
  ['lint', (m) => ['lint', m]],
  ['coverage', (m) => ['coverage', '--nodes', GOOD_NODES, m]],
  ['diff', (m) => ['diff', MANIFESTS, m]],
  ['plan', (m) => ['plan', m, '--old', MANIFESTS, '--nodes', GOOD_NODES]],
];

describe('manifests: refused inputs, for every command', () => {
  const REFUSED: readonly Refused[] = [
    { name: 'an empty file', content: () => '', message: /: is empty \(0 bytes\); expected Kubernetes manifests \(YAML or JSON\)/ },
    {
      name: 'only comments',
      content: () => '# Source: chart/templates/ds.yaml\n---\n',
      message: /: holds no objects \(only whitespace, comments or empty documents\)/,
    },
    {
      name: 'a kubectl get daemonsets table',
      content: () => DS_TABLE,
      message: /:1: a table printed by kubectl get daemonsets, not Kubernetes objects .*kubectl get daemonsets -A -o yaml/,
    },
    { name: 'text', content: () => 'helm template failed\n', message: /:1: not a Kubernetes object: the document is a string/ },
    { name: 'a JSON list of numbers', content: () => '[1, 2]', message: /:1: not a Kubernetes object: \[0\] is a number/ },
    {
      name: 'a List with a string item',
      content: () => ({ kind: 'List', items: [AGENT_NEW, 'agent'] }),
      message: /:1: not a Kubernetes object: items\[1\] is a string/,
    },
    {
      name: 'YAML without a kind',
      content: () => 'helm: command not found\n',
      message: /:1: not Kubernetes objects: no object in it has a kind/,
    },
    { name: 'nodes', content: () => ({ kind: 'NodeList', items: NODES }), message: /:1: 2 Node objects \(a node list\?\), not manifests/ },
  ];
  test.each(MANIFEST_READERS.flatMap(([command, args]) => REFUSED.map((c) => [command, c.name, args, c] as const)))(
    '%s: %s is refused',
    async (command, _name, args, c) => {
      const file = write(`manifests/${c.name.replace(/\W+/g, '-')}.yaml`, c.content());
      const run = await runCli(args(file));
      expect(run.code).toBe(2);
      expect(run.err).toMatch(c.message);
      expect(run.err).not.toMatch(/\n\s+at /);
      // lint still prints its (empty) report: every readable file is checked; the others write nothing
      if (command !== 'lint') expect(run.out).toBe('');
    },
  );

  test.each(MANIFEST_READERS.filter(([c]) => c !== 'diff'))('%s: empty standard input is refused', async (_command, args) => {
    const run = await runCli(args('-'), { stdin: '' });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/<stdin>: is empty \(0 bytes\); expected Kubernetes manifests/);
  });

  test.each(MANIFEST_READERS.filter(([c]) => c !== 'lint'))(
    '%s: the same DaemonSet twice is not one cluster: refused, naming both places',
    async (_command, args) => {
      const folder = path.dirname(write('twice/a/agent.json', AGENT_NEW));
      write('twice/b/agent.json', AGENT_NEW);
      const run = await runCli(args(path.dirname(folder)));
      expectRefused(
        run,
        /twice\/b\/agent\.json:1: DaemonSet ops\/agent again \(first at .*twice\/a\/agent\.json:1\); expected one cluster's manifests/,
      );
    },
  );

  test.each(MANIFEST_READERS.filter(([c]) => c !== 'lint'))('%s: a DaemonSet without a pod template is refused', async (_command, args) => {
    const file = write('manifests/no-template.json', { ...AGENT_NEW, spec: { selector: AGENT.spec.selector } });
    expectRefused(await runCli(args(file)), /no-template\.json:1: DaemonSet "agent" has no spec\.template\.spec\.containers/);
  });
});

describe('manifests: values of the wrong JSON type get no coverage or plan verdict', () => {
  /** The 1-based line of `file` that holds `text`. */
  const lineOf = (file: string, text: string): number =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(text)) + 1;
  const hostNetworkString = (): any => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0' });
    ds.spec.template.spec.hostNetwork = 'true';
    return ds;
  };
  const portString = (): any => {
    const ds = daemonSet({ image: 'registry.example.com/agent:1.1.0' });
    ds.spec.template.spec.containers[0].ports = [{ name: 'http', containerPort: '80' }];
    return ds;
  };
  const READERS: ReadonlyArray<readonly [string, (m: string) => string[]]> = [
    ['coverage', (m) => ['coverage', '--nodes', GOOD_NODES, m]],
    ['coverage --fail-on-missing', (m) => ['coverage', '--fail-on-missing', '--nodes', GOOD_NODES, m]],
    ['plan', (m) => ['plan', m, '--old', MANIFESTS, '--nodes', GOOD_NODES]],
    ['plan --old', (m) => ['plan', MANIFESTS_NEW, '--old', m, '--nodes', GOOD_NODES]],
  ];
  test.each(
    READERS.flatMap(([command, args]) => [
      [
        command,
        'hostNetwork: "true"',
        args,
        hostNetworkString,
        '"hostNetwork": "true"',
        /spec\.template\.spec\.hostNetwork is the string "true"/,
      ] as const,
      [
        command,
        'containerPort: "80"',
        args,
        portString,
        '"containerPort": "80"',
        /spec\.template\.spec\.containers\[0\]\.ports\[0\]\.containerPort is the string "80"/,
      ] as const,
    ]),
  )(
    "GIVEN a DaemonSet with %s… WHEN %s reads it THEN it is refused at the field's line, with the value and the fix",
    async (_command, _name, args, make, text, field) => {
      // GIVEN a manifest with a value the API server cannot decode
      const file = write(`wrong-type/${_name.replace(/\W+/g, '-')}.json`, make());
      // WHEN the command reads it
      const run = await runCli(args(file));
      // THEN exit 2, one message: file:line, the field, the value as given, the fix; no verdict
      expectRefused(
        run,
        new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${lineOf(file, text)}:\\d+: DaemonSet ops/agent: field `),
      );
      expect(run.err).toMatch(field);
      expect(run.err).toMatch(/; write (true|80) without quotes; the API server cannot decode it, so no verdict is given on the object/);
    },
  );

  test('GIVEN the same DaemonSet WHEN lint reads it THEN it is a finding (field-type-invalid), not a refusal of the input', async () => {
    const file = write('wrong-type/lint.json', hostNetworkString());
    const run = await runCli(['lint', file]);
    expect(run.code).toBe(1);
    expect(run.out).toContain('field-type-invalid');
  });
});

describe('manifests: a fleet folder (cluster folders inside) is refused where one cluster is read; lint reads it per cluster', () => {
  const names = ['apps-us', 'edge-eu', 'prod-eu'];
  test.each([
    ['coverage', ['coverage', '--nodes', 'NODES', DIST], `coverage --clusters ${path.join(DIST, 'clusters')} --nodes`],
    ['diff', ['diff', DIST, DIST], `diff --clusters ${path.join(DIST, 'clusters')} ${path.join(DIST, 'clusters')}`],
    ['plan', ['plan', DIST, '--old', DIST, '--nodes', 'NODES'], `plan --clusters ${path.join(DIST, 'clusters')} --nodes`],
    [
      'coverage of dist/clusters itself',
      ['coverage', '--nodes', 'NODES', path.join(DIST, 'clusters')],
      `coverage --clusters ${path.join(DIST, 'clusters')}`,
    ],
  ])('%s of dist/ names the --clusters command and the clusters', async (_name, args, command) => {
    const run = await runCli(args.map((a) => (a === 'NODES' ? FIXTURE_NODES : a)));
    expectRefused(
      run,
      /: a fleet's folder: it holds 3 cluster folders \(apps-us, edge-eu, prod-eu in .*clusters\), which would be read as one cluster/,
    );
    expect(run.err).toContain(command);
    for (const n of names) expect(run.err).toContain(n);
  });

  test('one cluster folder of the fleet is one cluster: accepted', async () => {
    const run = await runCli(['coverage', '--nodes', FIXTURE_NODES, path.join(DIST, 'clusters', 'apps-us')]);
    expect(run.code).toBe(0);
  });

  test('lint reads the fleet folder cluster by cluster (each at its version)', async () => {
    const run = await runCli(['lint', '--quiet', DIST]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
  });
});

describe('manifests: accepted inputs, and gates over no DaemonSet', () => {
  test('an empty file in a folder is a chart without objects (cdk8s writes one): accepted', async () => {
    write('with-empty/agent.json', AGENT_NEW);
    const folder = path.dirname(write('with-empty/empty-chart.k8s.yaml', ''));
    for (const [command, args] of MANIFEST_READERS) {
      const run = await runCli(args(folder));
      expect([command, run.code, run.err]).toEqual([command, 0, '']);
    }
  });

  test.each([
    ['an empty List', { apiVersion: 'v1', kind: 'List', items: [] }],
    ['only a ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ops' } }],
  ])('%s: no DaemonSet is an answer without a gate, nothing to check with one', async (name, content) => {
    const file = write(`no-ds/${name.replace(/\W+/g, '-')}.json`, content);
    // WHEN coverage reads it without a gate THEN it answers with a notice
    const plain = await runCli(['coverage', '--nodes', GOOD_NODES, file]);
    expect(plain.code).toBe(0);
    expect(plain.err).toContain('no DaemonSet found in the given manifests');
    // AND every gate refuses: lint's exit code, --fail-on-missing, --fail-on-stuck, --fail-on
    const lint = await runCli(['lint', file]);
    expect(lint.code).toBe(2);
    expect(lint.err).toMatch(/nothing to check: no DaemonSet in .*; lint checks DaemonSets and gives no verdict over none/);
    for (const args of [
      ['coverage', '--fail-on-missing', '--nodes', GOOD_NODES, file],
      ['plan', '--fail-on-stuck', file, '--old', file, '--nodes', GOOD_NODES],
      ['diff', '--fail-on', 'rollout', file, file],
    ]) {
      expectRefused(await runCli(args), /^node-services: nothing to check: no DaemonSet in .* gives no verdict over nothing/);
    }
  });
});

describe('reproductions', () => {
  test('a 0-byte nodes.json (kubectl failed) with coverage --fail-on-missing: exit 2, not "runs on every node"', async () => {
    const nodes = write('repro/nodes.json', '');
    const run = await runCli(['coverage', '--fail-on-missing', '--nodes', nodes, path.join(DIST, 'clusters', 'apps-us')]);
    expectRefused(run, /nodes\.json: is empty \(0 bytes\)/);
    expect(run.out).not.toContain('every node');
  });

  test.each([
    ['coverage', (nodes: string) => ['coverage', '--fail-on-missing', '--nodes', nodes, path.join(DIST, 'clusters', 'apps-us')]],
    [
      'plan',
      (nodes: string) => [
        'plan',
        '--fail-on-stuck',
        path.join(DIST, 'clusters', 'apps-us'),
        '--old',
        path.join(DIST, 'clusters', 'apps-us'),
        '--nodes',
        nodes,
      ],
    ],
  ])('the kubectl get nodes table as %s --nodes: exit 2 naming -o json', async (_name, args) => {
    const nodes = write('repro/nodes.txt', NODE_TABLE);
    expectRefused(
      await runCli(args(nodes)),
      /nodes\.txt:1: a table printed by kubectl get nodes, not Node objects \(kubectl prints objects only with -o json\)/,
    );
  });

  test('diff of two fleet folders after a top-level image change: refused, not "0 rolled out"; the file itself shows the rollout', async () => {
    // GIVEN a copy of dist/ whose top-level fluent-bit image changed
    const next = path.join(dir, 'new-dist');
    fs.cpSync(DIST, next, { recursive: true });
    const top = path.join(next, '0001-node-agents.k8s.yaml');
    const text = fs.readFileSync(top, 'utf8');
    const image = /image: (cr\.fluentbit\.io\/fluent\/fluent-bit:[^\s]+)/.exec(text)![1];
    fs.writeFileSync(top, text.replace(image, `${image}-patched`));
    // WHEN the two folders are diffed THEN it is refused, naming diff --clusters and the clusters
    const run = await runCli(['diff', DIST, next]);
    expectRefused(run, /a fleet's folder: it holds 3 cluster folders/);
    expect(run.err).toContain(`diff --clusters ${path.join(DIST, 'clusters')} ${path.join(next, 'clusters')}`);
    expect(run.out).not.toContain('0 rolled out');
    // AND the top-level files diffed on their own show the rollout
    const files = await runCli(['diff', path.join(DIST, '0001-node-agents.k8s.yaml'), top]);
    expect(files.code).toBe(0);
    expect(files.out).toMatch(/DaemonSet node-services\/fluent-bit: pod template changed: rollout/);
  });

  test('coverage --nodes … dist: refused, not a bogus overlap of the clusters merged into one', async () => {
    const run = await runCli(['coverage', '--nodes', FIXTURE_NODES, DIST]);
    expectRefused(run, /a fleet's folder/);
    expect(run.err).toContain(`--clusters ${path.join(DIST, 'clusters')}`);
    expect(run.err).not.toContain('overlap');
  });
});

describe('Kubernetes versions: one grammar and one message in every command and cluster version file', () => {
  test.each(['1.27', '1.34', 'v1.30.1', 'v1.30', '30', '1.3', 'latest'])(
    '--kubernetes-version %s: coverage and lint refuse it with the same message',
    async (version) => {
      const coverage = await runCli(['coverage', '--kubernetes-version', version, '--nodes', GOOD_NODES, MANIFESTS]);
      const lint = await runCli(['lint', '--kubernetes-version', version, MANIFESTS]);
      expect([coverage.code, lint.code]).toEqual([2, 2]);
      const why = (err: string) => /--kubernetes-version (".*)$/m.exec(err)?.[1];
      expect(why(coverage.err)).toBeDefined();
      expect(why(coverage.err)).toBe(why(lint.err));
    },
  );

  test('--kubernetes-version 1.30: accepted by both', async () => {
    expect((await runCli(['coverage', '--kubernetes-version', '1.30', '--nodes', GOOD_NODES, MANIFESTS])).code).toBe(0);
    expect((await runCli(['lint', '--kubernetes-version', '1.30', MANIFESTS])).code).not.toBe(2);
  });

  test.each(['1.34', '1.27'])(
    'a cluster version file of %s: coverage --clusters and lint refuse it with the same message',
    async (version) => {
      // GIVEN a fleet folder whose cluster records an unsupported version
      const clusters = path.join(dir, `versions-${version}`, 'clusters');
      write(path.relative(dir, path.join(clusters, 'a', 'agent.json')), AGENT);
      write(path.relative(dir, path.join(clusters, 'a', 'kubernetes-version')), `${version}\n`);
      const nodes = path.dirname(write(path.relative(dir, path.join(clusters, '..', 'nodes', 'a.json')), { kind: 'List', items: NODES }));
      const coverage = await runCli(['coverage', '--clusters', clusters, '--nodes', nodes]);
      const lint = await runCli(['lint', path.join(clusters, '..')]);
      expect([coverage.code, lint.code]).toEqual([2, 2]);
      const file = path.join(clusters, 'a', 'kubernetes-version');
      const why = (err: string) =>
        err
          .split('\n')
          .find((l) => l.includes(`${file}: `))
          ?.split(`${file}: `)[1];
      expect(why(coverage.err)).toMatch(
        new RegExp(`^"${version.replace('.', '\\.')}" is not a supported Kubernetes version \\(one of 1\\.28, `),
      );
      expect(why(coverage.err)).toBe(why(lint.err));
    },
  );
});

describe('node pools: one resolver, the same groups in coverage and diff', () => {
  test('the control-plane node is in the control plane in both; the other nodes in their pool label', async () => {
    // GIVEN the example nodes: workers with node.example.com/pool, a control-plane node with only its role and type
    const NEW = path.relative(process.cwd(), path.join(ROOT, 'test/fixtures/day2/examples-new'));
    const OLD = path.relative(process.cwd(), path.join(ROOT, 'test/fixtures/day2/examples-old'));
    // WHEN coverage computes the node tax per pool, and diff lists the nodes a change restarts per pool
    const coverage = await runCli(['coverage', '--output', 'json', '--budget', 'cpu=50%', '--nodes', FIXTURE_NODES, NEW]);
    const diff = await runCli(['diff', OLD, NEW, '--nodes', FIXTURE_NODES]);
    // THEN coverage groups cp-1 under its role, not its instance type (m6i.large)
    const pools = JSON.parse(coverage.out).pools.map((p: any) => [p.pool, p.nodes]);
    expect(pools).toEqual([
      ['edge', 1],
      ['general', 6],
      ['gpu', 1],
      ['node-role.kubernetes.io/control-plane', 1],
    ]);
    // AND diff shows the same groups, with their labels
    const groups = diff.out
      .split('\n')
      .filter((l) => /^ {4}\S+: /.test(l))
      .map((l) => l.trim());
    expect(groups).toContain('node-role.kubernetes.io/control-plane: cp-1');
    expect(groups).toContain(
      'node.example.com/pool=general: worker-a-1, worker-b-1, worker-c-1, worker-cordoned, worker-notready, worker-small',
    );
    expect(groups).toContain('node.example.com/pool=gpu: gpu-a-1');
    expect(groups).toContain('node.example.com/pool=edge: edge-1');
  });
});

describe('--help lists what each command refuses', () => {
  test.each(['lint', 'coverage', 'diff', 'plan'])('%s --help', async (command) => {
    const help = (await runCli([command, '--help'])).out;
    expect(help).toContain('Refused input (exit 2, one message: the input, what was expected, the fix; docs/input-contract.md):');
    for (const cls of ['a kubectl get table', 'that is empty or holds no Kubernetes object', 'Node objects', 'nothing to check:']) {
      expect(help).toContain(cls);
    }
    if (command !== 'lint') {
      for (const cls of ['--nodes, --pods: an empty file', 'listed twice', "a fleet's folder", 'the same object twice'])
        expect(help).toContain(cls);
      expect(help).toContain(command === 'diff' ? 'diff --clusters OLD/clusters NEW/clusters' : `${command} --clusters DIR/clusters`);
    }
    // the commands that refuse values of the wrong JSON type say so; lint reports them, diff compares them
    expect(help.includes('a value of the wrong JSON type')).toBe(command === 'coverage' || command === 'plan');
  });
});

describe('the validation plugin: the same contract over the synthesized files', () => {
  let count = 0;
  /** Runs the plugin over files with these contents; returns the submitted status, or the error it threw. */
  async function validate(contents: ReadonlyArray<string | unknown>): Promise<{ status?: string; error?: Error }> {
    const { NodeServicesValidation } = await import('../../src/policy/plugin');
    const manifests = contents.map((c, i) => write(`plugin-${count++}/chart-${i}.k8s.yaml`, c));
    const submitted: string[] = [];
    const report = { addViolation: () => undefined, submit: (status: string) => void submitted.push(status) };
    try {
      await new NodeServicesValidation({ reportWarnings: false }).validate({ manifests, report });
    } catch (e) {
      return { error: e as Error };
    }
    return { status: submitted[0] };
  }

  test('an empty file beside the DaemonSets is a chart without objects: accepted', async () => {
    const result = await validate(['', AGENT_NEW]);
    expect(result.error).toBeUndefined();
    expect(result.status).toBeDefined();
  });

  test.each([
    ['a kubectl table', [DS_TABLE, AGENT_NEW], /chart-0\.k8s\.yaml:1: a table printed by kubectl get daemonsets/],
    [
      'Node objects',
      [{ kind: 'NodeList', items: NODES }, AGENT_NEW],
      /chart-0\.k8s\.yaml:1: 2 Node objects \(a node list\?\), not manifests/,
    ],
    ['text', ['not yaml objects\n', AGENT_NEW], /chart-0\.k8s\.yaml:1: not a Kubernetes object: the document is a string/],
    [
      'no DaemonSet at all',
      ['', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }],
      /nothing to check: no DaemonSet in the 2 synthesized manifest files \(1 ConfigMap\)/,
    ],
  ])('%s: refused with an InputError naming it', async (_name, contents, message) => {
    const result = await validate(contents);
    expect(result.error?.name).toBe('InputError');
    expect(result.error?.message).toMatch(message);
  });
});
