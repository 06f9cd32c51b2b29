/**
 * Whether the API server would accept a DaemonSet at all: a DaemonSet it rejects never creates a pod, so it covers no
 * node whatever its selectors say. The judgement is the rule catalogue's (its API-validity rules, `src/policy`), which
 * sits above the coverage analysis: `policy/api-validity.ts` provides it here when loaded (the package index and the
 * CLI commands that analyse coverage load it), so coverage depends on no rule. Asked to judge a DaemonSet before a
 * judge was provided (a caller that imports the coverage or day2 modules alone), it refuses: read as "accepted",
 * a DaemonSet the API server rejects would count as covering its nodes.
 */

import { NodeServicesError, NodeServicesErrorCode } from '../k8s/node-services-error';

/**
 * For each object, why the API server of Kubernetes `1.<minor>` (1.28 when not given) would reject it
 * (`rule-id: path: message`), or an empty list.
 */
export type ApiValidator = (objects: readonly unknown[], minor?: number) => string[][];

let validator: ApiValidator | undefined;

/** Installs the judge of API validity (`policy/api-validity.ts` does, when loaded). */
export function provideApiValidator(judge: ApiValidator): void {
  validator = judge;
}

/** DaemonSets to judge and no judge of API validity provided; code `API_VALIDATOR_MISSING`. */
export class ApiValidatorMissingError extends NodeServicesError {
  constructor() {
    const message =
      'cannot analyse coverage: no judge of API validity is installed, so a DaemonSet the API server would reject (and that ' +
      "covers no node) cannot be told apart; use the analysis through 'cdk8s-node-services' (its index installs the judge), " +
      'or, importing src/coverage or src/day2 alone, import src/policy/api-validity first';
    super(NodeServicesErrorCode.API_VALIDATOR_MISSING, message, [{ problem: message }]);
    this.name = 'ApiValidatorMissingError';
  }
}

/**
 * For each object, why the API server of Kubernetes `1.<minor>` (1.28 when not given) would reject it, or an empty
 * list. Only DaemonSets are judged; with DaemonSets among the objects and no judge provided, throws
 * {@link ApiValidatorMissingError}.
 */
export function apiRejections(objects: readonly unknown[], minor?: number): string[][] {
  if (!objects.some((o) => (o as { kind?: unknown } | undefined)?.kind === 'DaemonSet')) return objects.map(() => []);
  if (validator === undefined) throw new ApiValidatorMissingError();
  return validator(objects, minor);
}
