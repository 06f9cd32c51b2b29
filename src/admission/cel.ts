/**
 * Small builders of the CEL the admission policies carry, shared by every admission check (`pod-security/*.ts`,
 * `admission-checks.ts`). Every expression is written for the Kubernetes 1.28 CEL environment (see
 * `admission-spec.ts`): `has()` guards on every optional field, no optional syntax.
 */

import { ALLOWED_SECCOMP_TYPES, BASELINE_SELINUX_TYPES } from '../k8s/pod-security-sets';

/** A CEL string literal for `value` (single-quoted, escaped). @internal */
export function celString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A CEL list literal of strings. @internal */
export function celStringList(values: readonly string[]): string {
  return `[${values.map(celString).join(', ')}]`;
}

/** CEL: every field of `fields` is set below `root` (`has(a.b) && has(a.b.c)`). */
function hasPath(root: string, fields: readonly string[]): string {
  return fields.map((_, i) => `has(${[root, ...fields.slice(0, i + 1)].join('.')})`).join(' && ');
}

/** CEL: container `c`'s security context sets `path` (dot-separated), e.g. `seccompProfile.type`. @internal */
export function containerSets(path: string): string {
  return hasPath('c', ['securityContext', ...path.split('.')]);
}

/** CEL: the pod security context sets `path`. The variable is `{}` when the pod has none. @internal */
export function podSets(path: string): string {
  return hasPath('variables.podSecurityContext', path.split('.'));
}

/** CEL: a field of container `c`'s security context. @internal */
export const CONTAINER = (path: string): string => `c.securityContext.${path}`;
/** CEL: a field of the pod's security context. @internal */
export const POD = (path: string): string => `variables.podSecurityContext.${path}`;

/** CEL: the `render`ed entries of every container, init container and ephemeral container for which `bad` holds. @internal */
export function offendingContainers(bad: string, render = 'c.name'): string {
  return `variables.allContainers.filter(c, ${bad}).map(c, ${render})`;
}

/** CEL: `['pod']` when the pod-level `condition` holds, else `[]`. @internal */
export const POD_OFFENDS = (condition: string): string => `(${condition} ? ['pod'] : [])`;
/** CEL: the offenders, or none on Windows pods (exempt from the control from policy v1.25). @internal */
export const NOT_ON_WINDOWS = (offenders: string): string => `(variables.windows == true ? [] : ${offenders})`;
/** CEL: seccomp profile `profile` has an allowed type. @internal */
export const SECCOMP_VALID = (profile: string): string =>
  `has(${profile}.type) && ${profile}.type in ${celStringList(ALLOWED_SECCOMP_TYPES)}`;
/** CEL: SELinux options `o` set a type other than the baseline ones, a user or a role. @internal */
export const SELINUX_BAD = (o: string): string =>
  `(has(${o}.type) && !(${o}.type in ${celStringList(BASELINE_SELINUX_TYPES)})) || (has(${o}.user) && ${o}.user != '') || (has(${o}.role) && ${o}.role != '')`;
/** CEL: the pod's seccomp profile is set and allowed. @internal */
export const POD_SECCOMP_VALID = `(${podSets('seccompProfile')} && ${SECCOMP_VALID(POD('seccompProfile'))})`;

/**
 * CEL: `['pod']` when the pod security context sets `path` to a value for which `bad` holds, plus every container
 * whose own security context does. @internal
 */
export function podAndContainersWhere(path: string, bad: (field: string) => string): string {
  return `${POD_OFFENDS(`${podSets(path)} && ${bad(POD(path))}`)} + ${offendingContainers(`${containerSets(path)} && ${bad(CONTAINER(path))}`)}`;
}
