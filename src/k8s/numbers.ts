/**
 * Numeric field grammar: int32 bounds (every Kubernetes count, duration and ID field that is an `int32` in the API),
 * port numbers and the minimum length of a written reason.
 */

/** The largest value of a Kubernetes `int32` field. */
export const INT32_MAX = 2147483647;

/**
 * Why `value` is not an integer between `min` and {@link INT32_MAX} (the API server rejects larger values of `int32`
 * fields such as `minReadySeconds`, `revisionHistoryLimit`, probe timings and user IDs), or `undefined`.
 */
export function int32Error(value: unknown, min = 0): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > INT32_MAX) {
    return `must be a whole number between ${min} and ${INT32_MAX}`;
  }
  return undefined;
}

/** Why `value` is not a port number (an integer from 1 to 65535), or `undefined`. */
export function portNumberError(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535)
    return 'must be a whole number between 1 and 65535';
  return undefined;
}

/** The minimum length of a written reason (for host writes, privilege, OnDelete, Unconfined, suppressions). */
export const MIN_REASON_LENGTH = 10;

/** Why `reason` is not a written reason of at least {@link MIN_REASON_LENGTH} characters, or `undefined`. */
export function reasonError(reason: unknown): string | undefined {
  if (reason === undefined || reason === null) return 'no reason given';
  if (typeof reason !== 'string') return 'must be a string';
  const length = reason.trim().length;
  if (length < MIN_REASON_LENGTH) return `must be at least ${MIN_REASON_LENGTH} characters (has ${length})`;
  return undefined;
}

/** Whether `reason` is a written reason of at least {@link MIN_REASON_LENGTH} characters. */
export function isReason(reason: unknown): boolean {
  return reasonError(reason) === undefined;
}
