/**
 * The validation plugin as docs/vendor.md configures it in `cdk8s.yaml`, run by the real cdk8s CLI: the registry form
 * (`package: cdk8s-node-services` + `version`, loaded from the CLI's plugins folder) and the local-path form
 * (`package: ./node_modules/cdk8s-node-services`, for a package installed from a tarball or a git checkout that is not
 * on the registry). The package is built from the sources into a folder inside the repository (so that it resolves
 * cdk8s and its other peers from the repository's node_modules), the way `npm pack` ships it: `main` = the library.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as esbuild from 'esbuild';

const ROOT = path.join(__dirname, '..', '..');
const WORK = path.join(ROOT, 'test', '.validation-plugin');
const VERSION: string = require('../../package.json').version;

/** The examples' node agents (clean: every DaemonSet passes the error rules), and a DaemonSet that the API server would
 * reject (privileged with allowPrivilegeEscalation: false). */
const CLEAN = fs.readFileSync(path.join(ROOT, 'dist', '0001-node-agents.k8s.yaml'), 'utf8');
const BROKEN = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: node-services
spec:
  selector:
    matchLabels: { app.kubernetes.io/name: agent }
  template:
    metadata:
      labels: { app.kubernetes.io/name: agent }
    spec:
      containers:
        - name: agent
          image: registry.example.com/agent:1.0.0
          securityContext: { privileged: true, allowPrivilegeEscalation: false }
`;

let pkgDir: string;

beforeAll(() => {
  fs.rmSync(WORK, { recursive: true, force: true });
  pkgDir = path.join(WORK, 'package');
  fs.mkdirSync(pkgDir, { recursive: true });
  esbuild.buildSync({
    entryPoints: [path.join(ROOT, 'src', 'index.ts')],
    outfile: path.join(pkgDir, 'lib', 'index.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['cdk8s', 'cdk8s-plus-28', 'constructs'],
    logLevel: 'error',
  });
  fs.writeFileSync(
    path.join(pkgDir, 'package.json'),
    JSON.stringify({ name: 'cdk8s-node-services', version: VERSION, main: 'lib/index.js' }),
  );
}, 60_000);

afterAll(() => {
  if (!process.env.KEEP_PLUGIN_WORK) fs.rmSync(WORK, { recursive: true, force: true });
});

/** A cdk8s project whose app writes `manifest`, with the given `validations` entry; runs `cdk8s synth` in it. */
function synth(name: string, manifest: string, validation: string, extraArgs: string[] = []): { status: number | null; output: string } {
  const project = path.join(WORK, name);
  fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  fs.symlinkSync(pkgDir, path.join(project, 'node_modules', 'cdk8s-node-services'), 'dir');
  fs.writeFileSync(path.join(project, 'manifest.yaml'), manifest);
  fs.writeFileSync(
    path.join(project, 'app.js'),
    [
      "const fs = require('fs'), path = require('path');",
      'fs.mkdirSync(process.env.CDK8S_OUTDIR, { recursive: true });',
      "fs.copyFileSync(path.join(__dirname, 'manifest.yaml'), path.join(process.env.CDK8S_OUTDIR, 'app.k8s.yaml'));",
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(project, 'cdk8s.yaml'), `language: typescript\napp: node app.js\nvalidations:\n${validation}`);
  const cli = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');
  const r = spawnSync(cli, ['synth', '--no-check-upgrade', ...extraArgs], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false' },
  });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

const localForm = `  - package: ./node_modules/cdk8s-node-services
    version: ${VERSION}
    class: NodeServiceValidation
    properties:
      rules: { no-node-local-need: "off" }
`;
const registryForm = `  - package: cdk8s-node-services
    version: ${VERSION}
    class: NodeServiceValidation
    properties:
      rules: { no-node-local-need: "off" }
`;

/** The plugins folder as the CLI leaves it after installing the registry form once (no network needed here). */
function pluginsDir(name: string): string {
  const dir = path.join(WORK, `${name}-plugins`);
  const installed = path.join(dir, 'cdk8s-node-services', VERSION, 'node_modules');
  fs.mkdirSync(installed, { recursive: true });
  fs.symlinkSync(pkgDir, path.join(installed, 'cdk8s-node-services'), 'dir');
  return dir;
}

describe('cdk8s.yaml validations: NodeServiceValidation through the cdk8s CLI', () => {
  test('GIVEN the local-path form WHEN the manifests are clean THEN synth passes with the plugin run', () => {
    const r = synth('local-clean', CLEAN, localForm);
    expect([r.status, r.output]).toEqual([0, expect.stringContaining('Validations ended succesfully')]);
    expect(r.output).toMatch(/daemonsets\s*│\s*[1-9]/);
  }, 60_000);

  test('GIVEN the local-path form WHEN a DaemonSet is invalid THEN synth fails with the rule', () => {
    const r = synth('local-broken', BROKEN, localForm);
    expect(r.status).toBe(2);
    expect(r.output).toContain('privileged-escalation-conflict');
  }, 60_000);

  test('GIVEN the registry form with the package in the plugins folder WHEN a DaemonSet is invalid THEN synth fails with the rule', () => {
    const r = synth('registry-broken', BROKEN, registryForm, ['--plugins-dir', pluginsDir('registry-broken')]);
    expect(r.status).toBe(2);
    expect(r.output).toContain('privileged-escalation-conflict');
  }, 60_000);

  test('GIVEN the registry form WHEN the manifests are clean THEN synth passes', () => {
    const r = synth('registry-clean', CLEAN, registryForm, ['--plugins-dir', pluginsDir('registry-clean')]);
    expect([r.status, r.output]).toEqual([0, expect.stringContaining('Validations ended succesfully')]);
    expect(r.output).toMatch(/daemonsets\s*│\s*[1-9]/);
  }, 60_000);

  test('GIVEN the vendor guide THEN it documents both forms as tested here', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'docs', 'vendor.md'), 'utf8');
    expect(readme).toContain('package: ./node_modules/cdk8s-node-services');
    expect(readme).toMatch(/package: cdk8s-node-services\n\s+version: /);
  });
});
