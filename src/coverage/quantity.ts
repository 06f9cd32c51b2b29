/**
 * Exact integer quantities as the scheduler compares them: CPU in milli-units and everything else in base units,
 * both rounded **up** (apimachinery `Quantity.MilliValue()` / `Quantity.Value()`). The grammar check is the shared
 * one in `k8s/quantity`; this module only scales a valid quantity exactly (no floating-point rounding), so that
 * `1.1` CPU is 1100m and not 1101m.
 */

import { quantityError } from '../k8s/quantity';

const PARTS = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|n|u|m|k|M|G|T|P|E)?$/;
const INTEGER_WITH_SUFFIX = /^([0-9]{1,15})(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;
const BINARY_EXP: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_EXP: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/**
 * Scales a quantity to an integer number of `10^-scaleExp` units, rounding up: `scaleExp = 3` gives milli-units
 * (CPU), `0` gives base units (bytes, devices). Returns `undefined` for a value that is not a valid, non-negative
 * Kubernetes quantity.
 */
export function scaledQuantity(value: unknown, scaleExp: 0 | 3): number | undefined {
  if (typeof value !== 'string') return scaleText(value, scaleExp);
  // Node lists repeat the same few quantities thousands of times ("110", "3920m"): remember them.
  const memo = scaleExp === 3 ? MILLI_MEMO : UNIT_MEMO;
  let result = memo.get(value);
  if (result === undefined && !memo.has(value)) {
    result = scaleText(value, scaleExp);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(value, result);
  }
  return result;
}

const MEMO_LIMIT = 4096;
const MILLI_MEMO = new Map<string, number | undefined>();
const UNIT_MEMO = new Map<string, number | undefined>();

function scaleText(value: unknown, scaleExp: 0 | 3): number | undefined {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return undefined;
  const simple = INTEGER_WITH_SUFFIX.exec(text);
  if (simple !== null) {
    const fast = scaleInteger(Number(simple[1]), simple[2] ?? '', scaleExp);
    if (fast !== undefined) return fast;
  }
  if (quantityError(text) !== undefined) return undefined;
  const m = PARTS.exec(text);
  if (!m) return undefined;
  const whole = m[2] || '0';
  const fraction = m[3] ?? '';
  const suffix = m[4] ?? '';
  // value = mantissa / 10^fraction.length * 2^binaryExp * 10^decimalExp
  const mantissa = BigInt(whole + fraction);
  let binaryExp = 0;
  let decimalExp = scaleExp - fraction.length;
  if (suffix in BINARY_EXP) binaryExp = BINARY_EXP[suffix];
  else if (suffix in DECIMAL_EXP) decimalExp += DECIMAL_EXP[suffix];
  else decimalExp += Number(suffix.slice(1));
  if (decimalExp < -(whole.length + fraction.length + 1)) {
    // Below one unit (and below any representable precision): rounds up to 1 unless it is zero.
    return mantissa === 0n ? 0 : 1;
  }
  let numerator = mantissa << BigInt(binaryExp);
  let denominator = 1n;
  if (decimalExp >= 0) numerator *= 10n ** BigInt(decimalExp);
  else denominator = 10n ** BigInt(-decimalExp);
  const result = (numerator + denominator - 1n) / denominator;
  return Number(result);
}

/**
 * The fast path for an integer mantissa with an optional suffix ("4", "250m", "16Gi"), exact with doubles while
 * the result stays a safe integer; `undefined` sends the value to the exact BigInt path.
 */
function scaleInteger(mantissa: number, suffix: string, scaleExp: number): number | undefined {
  let result: number;
  if (suffix in BINARY_EXP) {
    result = mantissa * 2 ** BINARY_EXP[suffix] * 10 ** scaleExp;
  } else {
    const exp = DECIMAL_EXP[suffix] + scaleExp;
    if (exp >= 0) {
      result = mantissa * 10 ** exp;
    } else {
      const divisor = 10 ** -exp;
      const remainder = mantissa % divisor;
      result = (mantissa - remainder) / divisor + (remainder > 0 ? 1 : 0);
    }
  }
  return Number.isSafeInteger(result) ? result : undefined;
}

const BINARY_UNITS: Array<[string, number]> = [
  ['Ei', 2 ** 60],
  ['Pi', 2 ** 50],
  ['Ti', 2 ** 40],
  ['Gi', 2 ** 30],
  ['Mi', 2 ** 20],
  ['Ki', 2 ** 10],
];

/** Formats milli-CPU for people: `250m`, `2`, `-500m`. */
export function formatMilliCpu(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/** Formats a byte count for people: the largest binary unit that divides it exactly (`512Mi`, `1Gi`), else bytes. */
export function formatBytes(bytes: number): string {
  if (bytes === 0) return '0';
  for (const [unit, size] of BINARY_UNITS) {
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}
