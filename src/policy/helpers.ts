/**
 * Small helpers the rules share: JSON paths, value rendering for messages, defensive access to plain manifests.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Appends keys to a JSON path: numbers become `[n]`, identifiers `.key`, other keys `['key']`
 * (e.g. `metadata.labels['app.kubernetes.io/name']`).
 */
export function jsonPath(base: string, ...keys: Array<string | number>): string {
  let out = base;
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (IDENTIFIER.test(key)) out += out.length === 0 ? key : `.${key}`;
    else out += `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}

/** Renders a value for a message: strings quoted, others as JSON, long values shortened. */
export function show(value: unknown): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'string') text = `'${value}'`;
  else {
    try {
      text = JSON.stringify(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Whether `value` is a plain (non-array) object. */
export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a plain object, otherwise an empty object. */
export function asObject(value: unknown): Record<string, any> {
  return isObject(value) ? value : {};
}

/** `value` when it is an array, otherwise an empty array. */
export function asArray(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** Whether `value` is `true` (the boolean, not a truthy string). */
export function isTrue(value: unknown): boolean {
  return value === true;
}

/** A capability name in canonical form: upper case without the `CAP_` prefix (`cap_sys_admin` → `SYS_ADMIN`). */
export function canonicalCapability(name: unknown): string {
  const upper = String(name).trim().toUpperCase();
  return upper.startsWith('CAP_') ? upper.slice(4) : upper;
}

/** The capabilities a container adds, as written. */
export function addedCapabilities(securityContext: any): unknown[] {
  return asArray(asObject(asObject(securityContext).capabilities).add);
}

/** The capabilities a container drops, as written. */
export function droppedCapabilities(securityContext: any): unknown[] {
  return asArray(asObject(asObject(securityContext).capabilities).drop);
}

/** Whether `value` is a non-negative integer. */
export function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
