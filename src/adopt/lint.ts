/**
 * `lint` at error level over the synthesized app: the policy engine the `lint` command runs, over the objects the
 * generated app synthesizes. An error the output still has fails the import; an error suppressed in the output is
 * accepted only when the input has the same finding on the same object, at any level (it is carried, with the
 * suppression's reason).
 */

import { checkManifests, Finding } from '../policy/engine';
import { Severity } from '../policy/types';
import { KubernetesVersion } from '../k8s/api-fields/versions';
import { isClusterScoped } from '../k8s/namespaces';

/** An error-level finding of the synthesized app. */
export interface LintError {
  /** The rule id. */
  readonly ruleId: string;
  /** The object, as `Kind namespace/name`. */
  readonly object: string;
  /** The field. */
  readonly path: string;
  /** The finding's message. */
  readonly message: string;
}

/** An error-level finding the output carries from the input, suppressed with a reason. */
export interface CarriedLintError extends LintError {
  /** The suppression's reason, as written in the generated code. */
  readonly reason: string;
}

/** The lint of the synthesized app at error level. */
export interface LintResult {
  /** Errors the output has, unsuppressed or suppressed without the input having them (each fails the import). */
  readonly errors: LintError[];
  /** Errors the output carries from the input, with the reason. */
  readonly carried: CarriedLintError[];
}

/** `Kind namespace/name`, or `Kind name` for a cluster-scoped kind. */
function objectOf(f: Finding): string {
  return `${f.object.kind} ${isClusterScoped(f.object.kind) ? '' : `${f.object.namespace ?? 'default'}/`}${f.object.name}`;
}

function errorOf(f: Finding): LintError {
  return { ruleId: f.ruleId, object: objectOf(f), path: f.path, message: f.message };
}

/**
 * Lints `output` (the synthesized objects) at error level for the target `version`, comparing with `input` (the
 * objects imported, linted for the same version).
 */
export function lintOutput(input: readonly unknown[], output: readonly unknown[], version?: KubernetesVersion): LintResult {
  const config = version !== undefined ? { kubernetesVersion: version } : undefined;
  // The input's finding may be a warning there: a kind inferred from the shape is held to its allowlists less strictly
  // than the kind the generated app declares.
  const had = new Set(checkManifests(input, config).findings.map((f) => `${f.ruleId} ${objectOf(f)}`));
  const result: LintResult = { errors: [], carried: [] };
  for (const f of checkManifests(output, config).findings.filter((x) => x.severity === Severity.ERROR)) {
    if (f.suppressed && had.has(`${f.ruleId} ${objectOf(f)}`)) result.carried.push({ ...errorOf(f), reason: f.suppressionReason ?? '' });
    else result.errors.push(errorOf(f));
  }
  return result;
}
