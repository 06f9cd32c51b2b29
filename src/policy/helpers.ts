/**
 * Small helpers the rules share: JSON paths, value rendering for messages, defensive access to plain manifests,
 * and memoized forms of the pure grammar checks that the rules call for values recurring across objects.
 */

import { imagePinError } from '../k8s/image';
import { dns1123LabelError, labelValueError, portNameError, qualifiedNameError } from '../k8s/names';
import { parseQuantity, quantityError } from '../k8s/quantity';
import { isContainerRuntimeSocket } from './kinds';

import { asArray, asObject, ownString } from '../k8s/json';

export { asArray, asObject, isObject, jsonPath, showValue as show } from '../k8s/json';

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
export function addedCapabilities(securityContext: unknown): unknown[] {
  return asArray(asObject(asObject(securityContext).capabilities).add);
}

/** The capabilities a container drops, as written. */
export function droppedCapabilities(securityContext: unknown): unknown[] {
  return asArray(asObject(asObject(securityContext).capabilities).drop);
}

/** Whether `value` is a non-negative integer. */
export function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** How many distinct values each memoized check remembers before it starts afresh (bounds memory on large inputs). */
const MEMO_LIMIT = 4096;
/** Stands for a remembered `undefined` result. */
const NO_RESULT = Symbol('no result');

/**
 * Wraps a pure function of one string so that each distinct value is computed once: label keys, quantities,
 * images and host paths recur across the objects of one run and across repeated runs. Results must be immutable
 * (strings, numbers, booleans or `undefined`); arguments that are not strings are passed through uncached, and a
 * call that throws is not remembered. The remembered values and results are strings of their own (`ownString`), so
 * that the cache keeps no document of the input alive.
 */
export function memoizeByString<T extends string | number | boolean | undefined>(fn: (value: string) => T): (value: string) => T {
  const cache = new Map<string, T | typeof NO_RESULT>();
  return (value: string): T => {
    if (typeof value !== 'string') return fn(value);
    const hit = cache.get(value);
    if (hit !== undefined) return (hit === NO_RESULT ? undefined : hit) as T;
    const computed = fn(value);
    const result = (typeof computed === 'string' ? ownString(computed) : computed) as T;
    if (cache.size >= MEMO_LIMIT) cache.clear();
    cache.set(ownString(value), result === undefined ? NO_RESULT : result);
    return result;
  };
}

/** {@link qualifiedNameError}, memoized (label, annotation, selector and toleration keys repeat across objects). */
export const qualifiedNameErrorOf = memoizeByString(qualifiedNameError);
/** {@link labelValueError}, memoized (label values such as names, versions and components repeat). */
export const labelValueErrorOf = memoizeByString(labelValueError);
/** {@link dns1123LabelError}, memoized (namespaces, container and volume names). */
export const dns1123LabelErrorOf = memoizeByString(dns1123LabelError);
/** {@link portNameError}, memoized. */
export const portNameErrorOf = memoizeByString(portNameError);
/** {@link parseQuantity} of a string, memoized. */
export const parseQuantityOf = memoizeByString(parseQuantity);
/** {@link quantityError} of a string, memoized. */
export const quantityErrorOf = memoizeByString(quantityError);
/** {@link imagePinError}, memoized. */
export const imagePinErrorOf = memoizeByString(imagePinError);
/** {@link isContainerRuntimeSocket}, memoized. */
export const isContainerRuntimeSocketPath = memoizeByString(isContainerRuntimeSocket);
