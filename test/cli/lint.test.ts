import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Run, runCli } from '../support/cli';
import { RULES } from '../../src/policy/rules';
import { compliantDaemonSet } from '../policy/support';

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
    // THEN the exit code is 0 and the summary counts one DaemonSet, one skipped object and the suppression
    expect(run.code).toBe(0);
    expect(run.out).toContain('1 DaemonSet checked, 1 other object skipped: 0 errors, 0 warnings, 0 info, 1 suppressed');
    expect(run.out).toContain('suppressed host-path-writable');
  });

  test('error findings exit 1, grouped under their object with path, message and fix', async () => {
    const run = await lint([fixture('errors.yaml')]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^DaemonSet agents\/node-agent {2}\(.*errors\.yaml:2\)$/m);
    expect(run.out).toMatch(/error +selector-template-mismatch {2}spec\.template\.metadata\.labels/);
    expect(run.out).toMatch(
      /error +container-runtime-socket-writable {2}spec\.template\.spec\.containers\[0\]\.volumeMounts\[0\]\.readOnly/,
    );
    expect(run.out).toMatch(/image 'example\/node-agent:latest' uses the mutable ':latest' tag/);
    expect(run.out).toMatch(/fix: Use a version tag/);
    expect(run.out).toMatch(/1 DaemonSet checked, 0 other objects skipped: 4 errors/);
    // errors come first within the object
    const severities = run.out
      .split('\n')
      .map((l) => /^ {2}(error|warning|info) /.exec(l)?.[1])
      .filter(Boolean);
    expect(severities.slice(0, 4)).toEqual(['error', 'error', 'error', 'error']);
    expect(severities.slice(4)).not.toContain('error');
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
    expect(run.err).toMatch(/^node-services: .*malformed\.yaml:\d+:\d+: Flow map/);
    expect(run.err).not.toMatch(/\n\s+at /);
  });

  test('an empty file is fine', async () => {
    const run = await lint([fixture('empty.yaml')]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('0 DaemonSets checked, 0 other objects skipped');
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
    // THEN all are checked and exactly the ten broken ones fail, each at its own document line
    const report = JSON.parse(run.out);
    expect(run.code).toBe(1);
    expect(report.summary).toMatchObject({ checkedObjects: 1000, errors: 10, warnings: 0 });
    expect(report.findings.map((f: any) => f.object.name)).toEqual([...Array(10)].map((_, k) => `agent-${k * 100}`));
    expect(report.findings.map((f: any) => f.line)).toEqual([...Array(10)].map((_, k) => 1 + k * 100 * 2));
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
    const socket = sarifRun.results.find((r: any) => r.ruleId === 'container-runtime-socket-writable');
    expect(socket.level).toBe('error');
    expect(socket.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: fixture('errors.yaml') }, region: { startLine: 2 } });
    const warning = sarifRun.results.find((r: any) => r.ruleId === 'readiness-probe-missing');
    expect(warning.level).toBe('warning');
    expect(sarifRun.results.find((r: any) => r.ruleId === 'liveness-probe-missing').level).toBe('note');
    const suppressed = sarifRun.results.find((r: any) => r.ruleId === 'host-path-writable' && r.suppressions);
    expect(suppressed.suppressions).toEqual([
      { kind: 'inSource', justification: 'position database for tailed log files lives in /var/lib/fluent-bit' },
    ]);
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
