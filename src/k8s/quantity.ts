/**
 * Kubernetes resource quantities (apimachinery `resource.Quantity`): parsing to a number so that
 * requests and limits can be compared, and syntax checking with the API server's grammar.
 */

const QUANTITY = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|n|u|m|k|M|G|T|P|E)?$/;

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/**
 * Parses a quantity (`"250m"`, `"128Mi"`, `"1.5"`, `2`) to its value in base units (cores, bytes).
 * Returns `undefined` when the text is not a valid Kubernetes quantity.
 */
export function parseQuantity(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const known = PARSED.get(value);
  if (known !== undefined || PARSED.has(value)) return known;
  const parsed = parseQuantityText(value);
  if (PARSED.size >= PARSED_LIMIT) PARSED.clear();
  PARSED.set(value, parsed);
  return parsed;
}

/**
 * Quantities parsed so far, by text: a synthesis or a lint parses the same few texts (`100m`, `128Mi`) for every
 * container, in the render and in several rules. A number per text, so sharing is safe; emptied when full.
 */
const PARSED = new Map<string, number | undefined>();
const PARSED_LIMIT = 4096;

function parseQuantityText(value: string): number | undefined {
  const m = QUANTITY.exec(value);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const digits = Number(m[2]);
  const suffix = m[3] ?? '';
  let factor: number;
  if (suffix in BINARY) factor = BINARY[suffix];
  else if (suffix in DECIMAL) factor = DECIMAL[suffix];
  else factor = 10 ** Number(suffix.slice(1));
  const result = sign * digits * factor;
  return Number.isFinite(result) ? result : undefined;
}

/** Why `value` is not a valid, non-negative Kubernetes quantity, or `undefined`. */
export function quantityError(value: string | number): string | undefined {
  return parsedQuantityError(parseQuantity(value));
}

/** {@link quantityError} of a value that {@link parseQuantity} has parsed to `parsed`. */
export function parsedQuantityError(parsed: number | undefined): string | undefined {
  if (parsed === undefined) {
    return "must be a quantity such as '100m', '0.5', '128Mi' or '1Gi' (digits with an optional decimal or binary suffix)";
  }
  if (parsed < 0) return 'must not be negative';
  return undefined;
}
