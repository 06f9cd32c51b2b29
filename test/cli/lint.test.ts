import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Run, runCli } from '../support/cli';
import { RULES } from '../../src/policy/rules';
import { compliantDaemonSet, mainContainer, podOf } from '../policy/support';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'policy');
const fixture = (name: string) => path.join(FIXTURES, name);

function lint(args: string[], options: { stdin?: string; isTTY?: boolean } = {}): Promise<Run> {
  return runCli(['lint', ...args], options);
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'lint-test-'));
}

describe('node-services lint: exit codes', () => {
  test('a clean file exits 0 and says what was checked', async () => {
    // GIVEN a compliant log agent (with a reasoned suppression) and its Namespace
    // WHEN linted
    const run = await lint([fixture('compliant-log-agent.yaml')]);
    // THEN the exit code is 0 and the summary counts one DaemonSet and one skipped object (the log agent's write
    // of /var/lib/fluent-bit is one its kind needs, so there is nothing to suppress) and the kind it was checked as
    expect(run.code).toBe(0);
    expect(run.out).toContain('1 DaemonSet checked, 1 other object skipped: 0 errors, 0 warnings, 0 info, 0 suppressed');
    expect(run.out).toContain('kinds: 1 log-agent (annotation)');
  });

  test('error findings exit 1, grouped under their object with path, message and fix', async () => {
    const run = await lint([fixture('errors.yaml')]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^DaemonSet agents\/node-agent {2}\(.*errors\.yaml:2\)$/m);
    expect(run.out).toMatch(/error +selector-template-mismatch {2}spec\.template\.metadata\.labels/);
    expect(run.out).toMatch(/warning +container-runtime-socket {2}spec\.template\.spec\.volumes\[0\]\.hostPath\.path/);
    // each finding names the file, line and column of its field
    expect(run.out).toMatch(/errors\.yaml:18:11: container 'agent' image 'example\/node-agent:latest' uses the mutable ':latest' tag/);
    expect(run.out).toMatch(/errors\.yaml:25:13: volume 'sock' mounts the container runtime socket path '\/var\/run\/docker\.sock'/);
    expect(run.out).toContain('kind: node-service (no kind annotation, nothing in the shape identifies a kind)');
    expect(run.out).toMatch(/fix: Use a version tag/);
    expect(run.out).toMatch(/1 DaemonSet checked, 0 other objects skipped: 2 errors/);
    // errors come first within the object
    const severities = run.out
      .split('\n')
      .map((l) => /^ {2}(error|warning|info) /.exec(l)?.[1])
      .filter(Boolean);
    expect(severities.slice(0, 2)).toEqual(['error', 'error']);
    expect(severities.slice(2)).not.toContain('error');
  });

  test('warnings only exit 0', async () => {
    const dir = tempDir();
    const ds = compliantDaemonSet();
    delete ds.spec.template.spec.containers[0].readinessProbe;
    fs.writeFileSync(path.join(dir, 'ds.json'), JSON.stringify(ds));
    const run = await lint([dir]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('0 errors, 1 warning');
  });

  test('a config file changes levels and adds a registry allowlist', async () => {
    // GIVEN the mixed folder (an untyped hostPath, no liveness probe, a quay.io image) and a config that raises
    // host-path-type-missing to error, switches liveness-probe-missing off and allows quay.io/prometheus/
    const run = await lint(['--format', 'json', '--config', fixture('lint-config.yaml'), fixture('mixed')]);
    const report = JSON.parse(run.out);
    const byRule = Object.fromEntries(report.findings.map((f: any) => [f.ruleId, f.severity]));
    expect(byRule['host-path-type-missing']).toBe('error');
    expect(byRule['liveness-probe-missing']).toBeUndefined();
    expect(byRule['image-registry-not-allowed']).toBeUndefined();
    expect(run.code).toBe(1);
  });

  test.each([
    [
      'an unknown rule id',
      'rules:\n  host-path-writeable: off\n',
      /config .*bad\.yaml: rules: unknown rule id 'host-path-writeable' \(did you mean 'host-path-writable'\?\)/,
    ],
    ['switching off an API-validity rule', 'rules:\n  selector-invalid: off\n', /selector-invalid: cannot be set to 'off'/],
    ['an unknown level', 'rules:\n  host-path-writable: ignore\n', /level 'ignore' is not one of off, warning, error/],
    ['malformed YAML', 'rules: {a: b\n', /bad\.yaml:\d+:\d+: /],
  ])('a bad config file (%s) exits 2', async (_name, text, message) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'bad.yaml'), text);
    const run = await lint(['--config', path.join(dir, 'bad.yaml'), fixture('compliant-log-agent.yaml')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
    expect(run.out).toBe('');
  });

  test('an unreadable config file exits 2', async () => {
    const run = await lint(['--config', path.join(tempDir(), 'missing.yaml'), fixture('compliant-log-agent.yaml')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/missing\.yaml: cannot read \(ENOENT\)/);
  });

  test('a missing input path exits 2', async () => {
    const run = await lint([fixture('no-such-file.yaml')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/no-such-file\.yaml: no such file or directory/);
  });

  test('no input exits 2 with a hint', async () => {
    const run = await lint([]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/no input; give files or folders .* or - to read stdin/);
  });

  test('an unknown format exits 2', async () => {
    const run = await lint(['--format', 'xml', fixture('errors.yaml')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/xml/);
  });
});

describe('node-services lint: input', () => {
  test('malformed YAML gives file:line:col and the parser message, not a stack trace', async () => {
    const run = await lint([fixture('malformed.yaml')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^node-services: .*malformed\.yaml:6:1: missed comma between flow collection entries\n$/);
    expect(run.err).not.toMatch(/\n\s+at /);
  });

  test('an empty file holds no manifests: exit 2 with a message, so a wrong path never passes', async () => {
    const run = await lint([fixture('empty.yaml')]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^node-services: .*empty\.yaml: is empty \(0 bytes\); expected Kubernetes manifests \(YAML or JSON\)/);
    expect(run.out).toBe('');
  });

  test('a folder is searched recursively; List items are expanded and non-Kubernetes YAML is skipped and counted', async () => {
    // GIVEN a folder with a List (ConfigMap + DaemonSet), a Helm values file and a text file
    const run = await lint(['--format', 'json', fixture('mixed')]);
    const report = JSON.parse(run.out);
    // THEN the DaemonSet is checked and the ConfigMap and the values file are skipped
    expect(report.summary).toMatchObject({ checkedObjects: 1, skippedObjects: 2 });
    expect(new Set(report.findings.map((f: any) => f.object.name))).toEqual(new Set(['node-exporter']));
    expect(report.findings[0].file).toBe(fixture('mixed/agent.yaml'));
  });

  test('reads stdin with -', async () => {
    const stdin = fs.readFileSync(fixture('errors.yaml'), 'utf8');
    const run = await lint(['--format', 'json', '-'], { stdin });
    const report = JSON.parse(run.out);
    expect(run.code).toBe(1);
    expect(report.summary.checkedObjects).toBe(1);
    expect(report.findings[0].file).toBe('-');
  });

  test('checks a generated file of 1,000 DaemonSets', async () => {
    // GIVEN 1,000 DaemonSets in one multi-document file, every 100th with an unpinned image
    const docs: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const ds = compliantDaemonSet();
      ds.metadata.name = `agent-${i}`;
      if (i % 100 === 0) ds.spec.template.spec.containers[0].image = `example/agent-${i}:latest`;
      docs.push(JSON.stringify(ds));
    }
    const file = path.join(tempDir(), 'many.yaml');
    fs.writeFileSync(file, docs.join('\n---\n'));
    // WHEN linted
    const run = await lint(['--format', 'json', file]);
    // THEN all are checked and exactly the ten broken ones fail, each at its own document line, and the field's
    // column on that line (the documents are one-line JSON)
    const report = JSON.parse(run.out);
    expect(run.code).toBe(1);
    expect(report.summary).toMatchObject({ checkedObjects: 1000, errors: 10, warnings: 0 });
    expect(report.findings.map((f: any) => f.object.name)).toEqual([...Array(10)].map((_, k) => `agent-${k * 100}`));
    expect(report.findings.map((f: any) => f.objectLine)).toEqual([...Array(10)].map((_, k) => 1 + k * 100 * 2));
    expect(report.findings.map((f: any) => f.line)).toEqual([...Array(10)].map((_, k) => 1 + k * 100 * 2));
    const line = docs[0];
    expect(report.findings[0].column).toBe(line.indexOf('"image"') + 1);
  });
});

describe('node-services lint: input like kubectl', () => {
  const ds = (name: string) => ({ ...compliantDaemonSet(), metadata: { ...compliantDaemonSet().metadata, name } });

  test('a folder with one unreadable file: that file is reported with file:line:col and exit 2, every other file is linted', async () => {
    // GIVEN a folder with two good files, one malformed file and one that cannot be read (a dangling link)
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.yaml'), JSON.stringify(ds('a')));
    fs.writeFileSync(path.join(dir, 'b.yaml'), 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: [b\n');
    fs.symlinkSync(path.join(dir, 'missing-target.yaml'), path.join(dir, 'c.yaml'));
    const d = ds('d');
    mainContainer(d).image = 'example/d:latest';
    fs.writeFileSync(path.join(dir, 'd.yaml'), JSON.stringify(d));
    // WHEN linted
    const run = await lint(['--format', 'json', dir]);
    // THEN both bad files are named on stderr, the two good ones are checked and reported, and the exit code is 2
    expect(run.code).toBe(2);
    expect(run.err).toMatch(new RegExp(`^node-services: ${path.join(dir, 'b.yaml')}:5:1: .+\n`, 'm'));
    expect(run.err).toContain(`node-services: ${path.join(dir, 'c.yaml')}: cannot read (ENOENT)`);
    const report = JSON.parse(run.out);
    expect(report.summary).toMatchObject({ checkedObjects: 2, errors: 1, inputProblems: 2 });
    expect(report.findings.map((f: any) => [f.object.name, f.ruleId])).toEqual([['d', 'image-not-pinned']]);
    expect(report.problems.map((p: any) => [path.basename(p.file), p.line ?? null])).toEqual([
      ['b.yaml', 5],
      ['c.yaml', null],
    ]);
  });

  test.each([
    ['an empty folder', (dir: string) => dir, /no \*\.yaml, \*\.yml, \*\.json files in this folder/],
    [
      'a folder without YAML',
      (dir: string) => {
        fs.writeFileSync(path.join(dir, 'README.md'), '# nothing');
        return dir;
      },
      /no \*\.yaml, \*\.yml, \*\.json files in this folder/,
    ],
    [
      'binary garbage named .yaml',
      (dir: string) => {
        fs.writeFileSync(
          path.join(dir, 'image.yaml'),
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
        );
        return path.join(dir, 'image.yaml');
      },
      /image\.yaml:3:1: binary data, not YAML or JSON/,
    ],
    [
      'a text file named .yaml',
      (dir: string) => {
        fs.writeFileSync(path.join(dir, 'notes.yaml'), 'just some words\n');
        return path.join(dir, 'notes.yaml');
      },
      /notes\.yaml:1: not a Kubernetes object: the document is a string/,
    ],
  ])('%s exits 2 with a message', async (_name, make, message) => {
    const run = await lint([make(tempDir())]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
    expect(run.out).toBe('');
  });

  test('an unrendered Helm template is reported as such, and nothing leaks to stderr but the finding', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'daemonset.yaml');
    fs.writeFileSync(
      file,
      '{{- if .Values.enabled }}\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {{ include "x.fullname" . }}\n{{- end }}\n',
    );
    const run = await lint([file]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      `node-services: ${file}:1:1: unrendered Helm template ({{ … }}); render it first (helm template …) and lint the output\n`,
    );
  });

  test('Helm output quirks are read like kubectl: # Source comments, empty documents, --- # comment, ..., CRLF, BOM', async () => {
    const a = JSON.stringify(ds('a'));
    const text = `\ufeff---\r\n# Source: chart/templates/a.yaml\r\n${a}\r\n---\r\n# Source: chart/templates/empty.yaml\r\n--- # comment\r\n...\r\n---\r\n# Source: chart/templates/ns.yaml\r\napiVersion: v1\r\nkind: Namespace\r\nmetadata:\r\n  name: logging\r\n...\r\n`;
    const run = await lint(['--format', 'json', '-'], { stdin: text });
    expect(run.err).toBe('');
    const report = JSON.parse(run.out);
    expect(report.summary).toMatchObject({ checkedObjects: 1, skippedObjects: 1, errors: 0, inputProblems: 0 });
    expect(report.objects[0].line).toBe(3);
  });

  test('YAML 1.1 values as kubectl reads them: 0644 is 420, 0o17 a string, yes/on booleans', async () => {
    // GIVEN a DaemonSet whose label value is a plain 0o17 (a string in YAML 1.1), whose defaultMode is 0644 and
    // whose hostNetwork is `on`
    const text = [
      'apiVersion: apps/v1',
      'kind: DaemonSet',
      'metadata: {name: agent, namespace: agents, labels: {build: 0o17, octal: 0644}}',
      'spec:',
      '  selector: {matchLabels: {app: agent}}',
      '  template:',
      '    metadata: {labels: {app: agent}}',
      '    spec:',
      '      hostNetwork: on',
      '      containers: [{name: agent, image: "example/agent:1.0"}]',
      '      volumes: [{name: cfg, configMap: {name: cfg, defaultMode: 0644}}]',
      '',
    ].join('\n');
    const run = await lint(['--format', 'json', '-'], { stdin: text });
    const report = JSON.parse(run.out);
    // THEN the label 0o17 is a valid string, the label 0644 is the number 420 (not a string: the API server cannot
    // decode it, and it is reported once, as its type), and hostNetwork is true (the DNS policy rule sees it)
    const labels = report.findings.filter((f: any) => f.path.startsWith('metadata.labels'));
    expect(labels.map((f: any) => [f.ruleId, f.path])).toEqual([['field-type-invalid', 'metadata.labels.octal']]);
    expect(labels[0].message).toMatch(/is the number 420; a string goes here/);
    expect(report.findings.map((f: any) => f.ruleId)).toContain('host-network-dns-policy');
  });
});

describe('node-services lint: readable output', () => {
  test('--quiet shows error findings only; the summary still counts everything', async () => {
    const run = await lint(['--quiet', fixture('errors.yaml')]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/error +image-not-pinned/);
    expect(run.out).not.toMatch(/^ {2}warning /m);
    expect(run.out).toMatch(/2 errors, \d+ warnings/);
    const json = JSON.parse((await lint(['-q', '-o', 'json', fixture('errors.yaml')])).out);
    expect(new Set(json.findings.map((f: any) => f.severity))).toEqual(new Set(['error']));
  });

  test('suppressed findings are summarized per rule, once, with the reason shortened', async () => {
    // GIVEN a generic node service with three writable host paths and one long suppression reason
    const ds = compliantDaemonSet('node-service');
    const reason = `the agent keeps its state under these paths: ${'x'.repeat(300)}`;
    ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable'] = reason;
    for (const n of [1, 2, 3]) {
      podOf(ds).volumes.push({ name: `state${n}`, hostPath: { path: `/var/lib/agent${n}`, type: 'DirectoryOrCreate' } });
      mainContainer(ds).volumeMounts.push({ name: `state${n}`, mountPath: `/state${n}` });
    }
    const run = await lint(['-'], { stdin: JSON.stringify(ds) });
    // THEN one line names the rule, the count and the start of the reason
    const lines = run.out.split('\n').filter((l) => l.includes('suppressed host-path-writable'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {2}suppressed host-path-writable \(3 findings\): the agent keeps its state under these paths: x+…$/);
    expect(lines[0].length).toBeLessThan(160);
    expect(run.out).toContain('3 suppressed');
  });

  test('-o/--output and the old -f/--format choose the same formats; disagreeing flags are a usage error', async () => {
    const viaOutput = await lint(['--output', 'json', fixture('errors.yaml')]);
    const viaFormat = await lint(['-f', 'json', fixture('errors.yaml')]);
    expect(JSON.parse(viaOutput.out)).toEqual(JSON.parse(viaFormat.out));
    const both = await lint(['-o', 'json', '-f', 'sarif', fixture('errors.yaml')]);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--format sarif and --output json disagree/);
  });

  test('--help shows the exit codes and examples', async () => {
    const run = await lint(['--help']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 /);
    expect(run.out).toContain('helm template cilium cilium/cilium | node-services lint -');
    expect(run.out).toContain('-q, --quiet');
  });

  test('the kind each DaemonSet was checked as is in every format', async () => {
    const cni = compliantDaemonSet();
    delete cni.metadata.annotations['node-services.cdk8s.io/kind'];
    podOf(cni).hostNetwork = true;
    podOf(cni).volumes = [{ name: 'cni-bin', hostPath: { path: '/opt/cni/bin', type: 'DirectoryOrCreate' } }];
    mainContainer(cni).volumeMounts = [{ name: 'cni-bin', mountPath: '/host/opt/cni/bin' }];
    const stdin = JSON.stringify(cni);
    const text = await lint(['-'], { stdin });
    expect(text.out).toContain('kind: cni-plugin (inferred from hostNetwork and writable host path /opt/cni/bin)');
    expect(text.out).toContain('kinds: 1 cni-plugin (inferred)');
    const json = JSON.parse((await lint(['-o', 'json', '-'], { stdin })).out);
    expect(json.objects[0]).toMatchObject({
      serviceKind: 'cni-plugin',
      kindSource: 'inferred',
      kindEvidence: 'hostNetwork and writable host path /opt/cni/bin',
    });
    expect(json.findings.every((f: any) => f.serviceKind === 'cni-plugin')).toBe(true);
    const sarif = JSON.parse((await lint(['-o', 'sarif', '-'], { stdin })).out);
    expect(sarif.runs[0].results[0].properties).toEqual({ nodeServiceKind: 'cni-plugin', kindSource: 'inferred' });
  });
});

describe('node-services lint: output', () => {
  test('colours only on a terminal', async () => {
    const plain = await lint([fixture('errors.yaml')]);
    const tty = await lint([fixture('errors.yaml')], { isTTY: true });
    expect(plain.out).not.toContain('\u001b[');
    expect(tty.out).toContain('\u001b[31merror');
  });

  test('SARIF 2.1.0 output is structurally valid and carries rules, levels, files, lines and suppressions', async () => {
    // GIVEN a file with errors and a file with a suppressed finding
    const run = await lint(['--format', 'sarif', fixture('errors.yaml'), fixture('compliant-log-agent.yaml')]);
    const log = JSON.parse(run.out);
    // THEN the log satisfies the SARIF 2.1.0 structure
    expect(sarifProblems(log)).toEqual([]);
    const [sarifRun] = log.runs;
    expect(sarifRun.tool.driver.rules.map((r: any) => r.id)).toEqual(RULES.map((r) => r.id));
    const image = sarifRun.results.find((r: any) => r.ruleId === 'image-not-pinned');
    expect(image.level).toBe('error');
    // the region is the offending field (line 18, column 11: `image:`), not the object's first line
    expect(image.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: fixture('errors.yaml') },
      region: { startLine: 18, startColumn: 11 },
    });
    expect(image.properties).toEqual({ nodeServiceKind: 'node-service', kindSource: 'default' });
    const warning = sarifRun.results.find((r: any) => r.ruleId === 'readiness-probe-missing');
    expect(warning.level).toBe('warning');
    expect(sarifRun.results.find((r: any) => r.ruleId === 'liveness-probe-missing').level).toBe('note');
    expect(sarifRun.invocations).toEqual([{ executionSuccessful: true }]);
    expect(run.code).toBe(1);
  });

  test('SARIF validator rejects broken logs', () => {
    // The structural validator itself must catch the mistakes it exists for.
    const good = {
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 't', rules: [{ id: 'a' }] } },
          results: [{ ruleId: 'a', ruleIndex: 0, level: 'error', message: { text: 'm' }, locations: [] }],
        },
      ],
    };
    expect(sarifProblems(good)).toEqual([]);
    const broken = JSON.parse(JSON.stringify(good));
    broken.version = '2.0.0';
    broken.runs[0].results[0].ruleIndex = 3;
    broken.runs[0].results[0].level = 'fatal';
    delete broken.runs[0].results[0].message.text;
    expect(sarifProblems(broken)).toEqual([
      'version must be 2.1.0',
      'runs[0].results[0].level must be one of none, note, warning, error',
      'runs[0].results[0].message needs text',
      'runs[0].results[0].ruleIndex 3 does not point at rule a',
    ]);
  });
});

describe('node-services lint: startup', () => {
  test('loading and running the CLI never loads cdk8s or cdk8s-plus', () => {
    // GIVEN a fresh Node process that loads the CLI and lints a file
    const script = `
      const { main } = require('./src/cli/main');
      const io = { out: () => {}, err: () => {}, readStdin: async () => '', isTTY: false };
      main(['lint', ${JSON.stringify(fixture('errors.yaml'))}], io).then((code) => {
        const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](cdk8s|cdk8s-plus-28|constructs)[\\\\/]/.test(f));
        const policy = Object.keys(require.cache).filter((f) => f.includes('policy')).length;
        process.stdout.write(JSON.stringify({ code, loaded, policy }));
      });`;
    const child = spawnSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8' });
    // THEN it linted (exit code 1, the policy modules loaded) without cdk8s, cdk8s-plus or constructs in require.cache
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout);
    expect(result.code).toBe(1);
    expect(result.policy).toBeGreaterThan(10);
    expect(result.loaded).toEqual([]);
  });
});

/** A focused structural validator for the parts of SARIF 2.1.0 this tool emits (no network, no schema file). */
function sarifProblems(log: any): string[] {
  const problems: string[] = [];
  const LEVELS = ['none', 'note', 'warning', 'error'];
  const isObj = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (log.version !== '2.1.0') problems.push('version must be 2.1.0');
  if (log.$schema !== undefined && typeof log.$schema !== 'string') problems.push('$schema must be a string');
  if (!Array.isArray(log.runs) || log.runs.length === 0) return [...problems, 'runs must be a non-empty array'];
  log.runs.forEach((run: any, ri: number) => {
    const at = `runs[${ri}]`;
    const driver = run?.tool?.driver;
    if (!isObj(driver) || typeof driver.name !== 'string' || driver.name === '') {
      problems.push(`${at}.tool.driver needs a name`);
      return;
    }
    const rules: any[] = driver.rules ?? [];
    if (!Array.isArray(rules)) problems.push(`${at}.tool.driver.rules must be an array`);
    const ids = new Set<string>();
    rules.forEach((rule, i) => {
      if (typeof rule?.id !== 'string' || rule.id === '') problems.push(`${at}.tool.driver.rules[${i}] needs an id`);
      if (ids.has(rule.id)) problems.push(`${at}.tool.driver.rules[${i}].id ${rule.id} is duplicated`);
      ids.add(rule.id);
      for (const field of ['shortDescription', 'fullDescription', 'help']) {
        if (rule[field] !== undefined && typeof rule[field]?.text !== 'string')
          problems.push(`${at}.tool.driver.rules[${i}].${field} needs text`);
      }
      const level = rule.defaultConfiguration?.level;
      if (level !== undefined && !LEVELS.includes(level))
        problems.push(`${at}.tool.driver.rules[${i}].defaultConfiguration.level is invalid`);
    });
    if (!Array.isArray(run.results)) {
      problems.push(`${at}.results must be an array`);
      return;
    }
    run.results.forEach((r: any, i: number) => {
      const rat = `${at}.results[${i}]`;
      if (r.level !== undefined && !LEVELS.includes(r.level)) problems.push(`${rat}.level must be one of ${LEVELS.join(', ')}`);
      if (!isObj(r.message) || typeof r.message.text !== 'string' || r.message.text === '') problems.push(`${rat}.message needs text`);
      if (r.ruleId !== undefined && typeof r.ruleId !== 'string') problems.push(`${rat}.ruleId must be a string`);
      if (r.ruleIndex !== undefined) {
        if (!Number.isInteger(r.ruleIndex) || r.ruleIndex < 0 || rules[r.ruleIndex]?.id !== r.ruleId) {
          problems.push(`${rat}.ruleIndex ${r.ruleIndex} does not point at rule ${r.ruleId}`);
        }
      }
      if (!Array.isArray(r.locations)) problems.push(`${rat}.locations must be an array`);
      (r.locations ?? []).forEach((loc: any, li: number) => {
        const pl = loc.physicalLocation;
        if (pl === undefined) return;
        if (typeof pl.artifactLocation?.uri !== 'string' || /[\s\\]/.test(pl.artifactLocation.uri)) {
          problems.push(`${rat}.locations[${li}].physicalLocation.artifactLocation.uri must be a URI reference`);
        }
        if (pl.region !== undefined && !(Number.isInteger(pl.region.startLine) && pl.region.startLine >= 1)) {
          problems.push(`${rat}.locations[${li}].physicalLocation.region.startLine must be an integer >= 1`);
        }
      });
      (r.suppressions ?? []).forEach((s: any, si: number) => {
        if (!['inSource', 'external'].includes(s.kind)) problems.push(`${rat}.suppressions[${si}].kind must be inSource or external`);
      });
      if (r.partialFingerprints !== undefined) {
        for (const v of Object.values(r.partialFingerprints))
          if (typeof v !== 'string') problems.push(`${rat}.partialFingerprints values must be strings`);
      }
    });
  });
  return problems;
}
