/**
 * Whether the API server would accept a DaemonSet at all: a DaemonSet it rejects never creates a pod, so it covers no
 * node whatever its selectors say. The judgement is the rule catalogue's (its API-validity rules, `src/policy`), which
 * sits above the coverage analysis: `policy/api-validity.ts` provides it here when loaded (the package index and the
 * CLI commands that analyse coverage load it), so coverage depends on no rule.
 */

/** For each object, why the API server would reject it (`rule-id: path: message`), or an empty list. */
export type ApiValidator = (objects: readonly unknown[]) => string[][];

let validator: ApiValidator | undefined;

/** Installs the judge of API validity (`policy/api-validity.ts` does, when loaded). */
export function provideApiValidator(judge: ApiValidator): void {
  validator = judge;
}

/**
 * For each object, why the API server would reject it, or an empty list. Only DaemonSets are judged, and only when a
 * judge was provided (without one, which only a caller deep-importing the coverage modules sees, none is rejected).
 */
export function apiRejections(objects: readonly unknown[]): string[][] {
  if (validator === undefined || !objects.some((o) => (o as { kind?: unknown } | undefined)?.kind === 'DaemonSet')) {
    return objects.map(() => []);
  }
  return validator(objects);
}
