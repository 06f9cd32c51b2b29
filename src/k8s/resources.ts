/**
 * Container resource requirements as the Kubernetes 1.28 API server validates them (`ValidateResourceRequirements`):
 * resource names, quantities, requests against limits, extended resources (whole numbers, not overcommittable) and
 * huge pages.
 */

import { renderValue } from './json';
import { qualifiedNameError } from './names';
import { parsedQuantityError, parseQuantity } from './quantity';
import type { FieldProblem } from './selectors';

/** Resource names native to every container (besides `hugepages-<size>`). */
const STANDARD_CONTAINER_RESOURCES: readonly string[] = ['cpu', 'memory', 'ephemeral-storage'];

/** Whether `name` is native to Kubernetes: unprefixed, or in the `kubernetes.io/` namespace. */
export function isNativeResourceName(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** Whether `name` is a huge-pages resource (`hugepages-2Mi`, `hugepages-1Gi`). */
export function isHugePagesResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** Whether `name` is an extended resource (a device-plugin resource such as `nvidia.com/gpu`). */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResourceName(name) || name.startsWith('requests.')) return false;
  return qualifiedNameError(`requests.${name}`) === undefined;
}

/** Why `name` is not a resource a container may request, or `undefined`. */
export function containerResourceNameError(name: string): string | undefined {
  if (STANDARD_CONTAINER_RESOURCES.includes(name)) return undefined;
  if (isHugePagesResourceName(name)) {
    const size = parseQuantity(name.slice('hugepages-'.length));
    return size !== undefined && size > 0 ? undefined : "huge pages must name a page size, e.g. 'hugepages-2Mi'";
  }
  if (isExtendedResourceName(name)) return undefined;
  const keyError = qualifiedNameError(name);
  if (keyError) return keyError;
  return "must be cpu, memory, ephemeral-storage, hugepages-<size> or an extended resource such as 'nvidia.com/gpu'";
}

/** Whether requests of `name` may be below its limit (native resources other than huge pages). */
function overcommitAllowed(name: string): boolean {
  return isNativeResourceName(name) && !isHugePagesResourceName(name);
}

/**
 * The problems of a container's `requests` and `limits` maps (quantities as strings or numbers), each with the field
 * (`requests['nvidia.com/gpu']`) and why, in the API server's terms. Empty when they are valid.
 */
export function resourceRequirementsProblems(
  requests: { readonly [name: string]: unknown } | undefined,
  limits: { readonly [name: string]: unknown } | undefined,
): FieldProblem[] {
  const out: FieldProblem[] = [];
  const req = requests ?? {};
  const lim = limits ?? {};
  const check = (map: 'requests' | 'limits', name: string, value: unknown): number | undefined => {
    const field = `${map}['${name}']`;
    const nameError = containerResourceNameError(name);
    if (nameError) {
      out.push({ field, message: `resource name '${name}' ${nameError}` });
      return undefined;
    }
    const quantity = typeof value === 'string' || typeof value === 'number';
    const parsed = quantity ? parseQuantity(value) : undefined;
    const err = quantity ? parsedQuantityError(parsed) : 'must be a quantity string';
    if (err) {
      out.push({ field, message: err });
      return undefined;
    }
    if (isExtendedResourceName(name) && !Number.isInteger(parsed as number)) {
      out.push({ field, message: 'must be a whole number (extended resources are counted in units)' });
    }
    return parsed as number;
  };
  const limitValues = new Map<string, number | undefined>();
  for (const [name, value] of Object.entries(lim)) limitValues.set(name, check('limits', name, value));
  for (const [name, value] of Object.entries(req)) {
    const r = check('requests', name, value);
    const field = `requests['${name}']`;
    if (!limitValues.has(name)) {
      if (!overcommitAllowed(name))
        out.push({ field, message: `'${name}' needs a limit equal to its request (it cannot be overcommitted)` });
      continue;
    }
    const l = limitValues.get(name);
    if (r === undefined || l === undefined) continue;
    if (!overcommitAllowed(name) && r !== l) {
      out.push({
        field,
        message: `'${name}' request ${renderValue(value)} must equal its limit ${renderValue(lim[name])} (it cannot be overcommitted)`,
      });
    } else if (r > l) {
      out.push({ field, message: `'${name}' request ${renderValue(value)} is above its limit ${renderValue(lim[name])}` });
    }
  }
  const names = [...Object.keys(req), ...Object.keys(lim)];
  if (names.some(isHugePagesResourceName) && !names.some((n) => n === 'cpu' || n === 'memory')) {
    out.push({ field: 'requests', message: 'huge pages need a cpu or memory request or limit as well' });
  }
  return out;
}
