/**
 * IntOrString values as the DaemonSet update strategy uses them (`maxUnavailable`, `maxSurge`).
 */

const PERCENT = /^[0-9]+%$/;

/**
 * Why `value` is not a non-negative integer or a percentage string such as `"10%"` (at most 100%),
 * or `undefined` when it is valid.
 */
export function intOrPercentError(value: number | string): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) return 'must be a non-negative integer or a percentage such as "10%"';
    return undefined;
  }
  if (typeof value !== 'string' || !PERCENT.test(value)) {
    return 'must be a non-negative integer or a percentage such as "10%" (digits followed by %)';
  }
  if (Number(value.slice(0, -1)) > 100) return 'must not be more than 100%';
  return undefined;
}

/** Whether an IntOrString value is zero (`0` or `"0%"`); an absent value counts as zero. */
export function isZeroIntOrPercent(value: number | string | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'number') return value === 0;
  return /^0+%$/.test(value);
}
