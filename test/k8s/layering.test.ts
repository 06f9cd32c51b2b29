/**
 * The pure modules (Kubernetes grammar, manifest reading, rules, coverage) depend on nothing of the constructs, the
 * presets, the CLI or cdk8s, so the CLI and the rules load fast and the same functions serve every caller.
 */

import * as path from 'path';
import { filesUnder, moduleSpecifiers as importsOf } from '../support/imports';

const SRC = path.join(__dirname, '..', '..', 'src');
const PURE = ['k8s', 'manifests', 'policy', 'coverage', 'admission'];
/** The synth integration of the rules and the cdk8s validation plugin are the bridge to cdk8s. */
const BRIDGES = ['policy/synth.ts', 'policy/plugin.ts'];
const FORBIDDEN = /^(cdk8s|cdk8s-plus-\d+|constructs)$|^\.\.?\/.*\b(core|presets|cli)(\/|$)/;
/** The folders above the pure ones, each with what it must not import (folders of src/, or cdk8s itself). */
const UPPER: readonly { readonly dir: string; readonly folders: readonly string[]; readonly cdk8s: boolean }[] = [
  { dir: 'day2', folders: ['core', 'presets', 'cli', 'guardrails', 'observability', 'fleet'], cdk8s: true },
  { dir: 'report', folders: ['core', 'presets', 'cli'], cdk8s: true },
  { dir: 'fleet', folders: ['cli'], cdk8s: false },
];
const CDK8S = /^(cdk8s|cdk8s-plus-\d+|constructs)$/;

/** Whether `spec`, imported by `file`, names a module in one of `folders` of src/ or (with `cdk8s`) a cdk8s package. */
function forbiddenFor(file: string, spec: string, folders: readonly string[], cdk8s: boolean): boolean {
  if (!spec.startsWith('.')) return cdk8s && CDK8S.test(spec);
  const target = path.relative(SRC, path.resolve(path.dirname(file), spec)).split(path.sep);
  return folders.includes(target[0]);
}

describe('layering', () => {
  test.each(PURE)('GIVEN src/%s THEN it imports nothing from core/, presets/, cli/ or cdk8s', (dir) => {
    const offending = filesUnder(path.join(SRC, dir))
      .filter((f) => !BRIDGES.includes(path.relative(SRC, f).split(path.sep).join('/')))
      .flatMap((f) =>
        importsOf(f)
          .filter((spec) => FORBIDDEN.test(spec))
          .map((spec) => `${path.relative(SRC, f)} imports ${spec}`),
      );
    expect(offending).toEqual([]);
  });

  test.each(UPPER)('GIVEN src/$dir THEN it imports nothing from $folders (nor cdk8s: $cdk8s)', ({ dir, folders, cdk8s }) => {
    const offending = filesUnder(path.join(SRC, dir)).flatMap((f) =>
      importsOf(f)
        .filter((spec) => forbiddenFor(f, spec, folders, cdk8s))
        .map((spec) => `${path.relative(SRC, f)} imports ${spec}`),
    );
    expect(filesUnder(path.join(SRC, dir)).length).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });

  test('GIVEN a file of day2/ THEN the upper-folder check resolves specifiers against the file, not by name', () => {
    const file = path.join(SRC, 'day2', 'plan.ts');
    const day2 = UPPER[0].folders;
    expect(
      ['../core/errors', '../guardrails', '../fleet/fleet', 'cdk8s-plus-28', 'constructs'].every((s) => forbiddenFor(file, s, day2, true)),
    ).toBe(true);
    expect(['./core', '../coverage/analyze', '../k8s/core-names', 'yaml'].some((s) => forbiddenFor(file, s, day2, true))).toBe(false);
    expect(forbiddenFor(path.join(SRC, 'fleet', 'gitops.ts'), 'cdk8s', UPPER[2].folders, false)).toBe(false);
  });

  test('GIVEN the forbidden pattern THEN it catches what it must and lets relative siblings through', () => {
    expect(['../core/errors', 'cdk8s', 'cdk8s-plus-28', 'constructs', '../cli/io', '../../presets'].every((s) => FORBIDDEN.test(s))).toBe(
      true,
    );
    expect(['./names', '../k8s', '../coverage/selector', 'yaml'].some((s) => FORBIDDEN.test(s))).toBe(false);
  });
});
