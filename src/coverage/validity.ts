/**
 * Whether the API server would accept a DaemonSet at all: a DaemonSet it rejects never creates a pod, so it covers no
 * node whatever its selectors say. The rule catalogue's API-validity rules (`src/policy`) decide, plus the extended
 * resource rule of `ValidateResourceRequirements` / `validateContainerResourceName`: a resource outside the
 * `kubernetes.io` namespace (e.g. `nvidia.com/gpu`) must have a limit, an equal request when both are set, and an
 * integer amount.
 */

import { scaledQuantity } from './quantity';

/** Whether a resource name is an extended resource (`helper.IsExtendedResourceName`). */
function isExtendedResource(name: string): boolean {
  if (!name.includes('/') || name.startsWith('requests.')) return false;
  const prefix = name.slice(0, name.indexOf('/'));
  return prefix !== 'kubernetes.io' && !prefix.endsWith('.kubernetes.io');
}

/** Why the API server rejects a container's extended resources (`containers[0].resources...: message`). */
function extendedResourceProblems(spec: any, where: string): string[] {
  const out: string[] = [];
  for (const field of ['containers', 'initContainers']) {
    const list = spec?.[field];
    if (!Array.isArray(list)) continue;
    list.forEach((c: any, i: number) => {
      const requests = c?.resources?.requests ?? {};
      const limits = c?.resources?.limits ?? {};
      if (typeof requests !== 'object' || typeof limits !== 'object') return;
      const names = new Set([...Object.keys(requests), ...Object.keys(limits)].filter(isExtendedResource));
      for (const name of names) {
        const at = `${where}.${field}[${i}].resources`;
        const request = requests[name];
        const limit = limits[name];
        if (limit === undefined) {
          out.push(
            `extended-resource-invalid: ${at}.requests.${name}: an extended resource needs a limit (set limits.${name} equal to the request)`,
          );
          continue;
        }
        for (const [section, value] of [
          ['limits', limit],
          ['requests', request],
        ] as const) {
          if (value === undefined) continue;
          const milli = scaledQuantity(value, 3);
          if (milli !== undefined && milli % 1000 !== 0)
            out.push(`extended-resource-invalid: ${at}.${section}.${name} ${JSON.stringify(value)} must be a whole number`);
        }
        if (request !== undefined && scaledQuantity(request, 3) !== scaledQuantity(limit, 3)) {
          out.push(
            `extended-resource-invalid: ${at}.requests.${name} ${JSON.stringify(request)} must equal limits.${name} ${JSON.stringify(limit)} (extended resources cannot be overcommitted)`,
          );
        }
      }
    });
  }
  return out;
}

/**
 * For each object, why the API server would reject it (`rule-id: path: message`), or an empty list. Only DaemonSets
 * are judged; the rule catalogue is loaded on first use.
 */
export function apiRejections(objects: readonly any[]): string[][] {
  const out: string[][] = objects.map(() => []);
  const daemonSets = objects.filter((o) => o?.kind === 'DaemonSet');
  if (daemonSets.length === 0) return out;
  // Loaded here so that importing the coverage module does not load the rule catalogue.
  const { checkManifests } = require('../policy/engine') as typeof import('../policy/engine');
  const { RuleCategory } = require('../policy/types') as typeof import('../policy/types');
  const report = checkManifests(objects);
  for (const f of report.findings) {
    if (f.category === RuleCategory.API_VALIDITY && !f.suppressed) out[f.objectIndex].push(`${f.ruleId}: ${f.path}: ${f.message}`);
  }
  objects.forEach((o, i) => {
    if (o?.kind === 'DaemonSet') out[i].push(...extendedResourceProblems(o?.spec?.template?.spec, 'spec.template.spec'));
  });
  return out;
}
