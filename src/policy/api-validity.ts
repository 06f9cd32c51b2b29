/**
 * Whether the API server would accept a DaemonSet at all, for the coverage analysis (`coverage/validity.ts`): the rule
 * catalogue's API-validity rules decide — among them the extended-resource checks of `container-fields-invalid`
 * (`ValidateResourceRequirements`: a resource outside the `kubernetes.io` namespace such as `nvidia.com/gpu` needs a
 * limit, an equal request, and a whole amount). Importing this module provides the judge to the coverage analysis;
 * the rule catalogue itself is loaded on first use.
 */

import { provideApiValidator } from '../coverage/validity';
import type { RuleConfig } from './config';
import type { WireObject } from '../k8s/wire';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS, KubernetesVersion } from '../k8s/api-fields/versions';

/** The rule configuration that runs only what can find API-validity problems (the other rules are off). */
let apiValidityOnly: RuleConfig | undefined;

/** The supported version `1.<minor>` (the default target when not given, or when the minor is not supported). */
function versionOf(minor: number | undefined): KubernetesVersion {
  const v = `1.${minor}` as KubernetesVersion;
  return minor !== undefined && KUBERNETES_VERSIONS.includes(v) ? v : DEFAULT_KUBERNETES_VERSION;
}

/**
 * For each object, why the API server of Kubernetes `1.<minor>` (1.28 when not given) would reject it
 * (`rule-id: path: message`), or an empty list: a field newer than that version is a rejection, one it has is not.
 * Only DaemonSets are judged; the rule catalogue is loaded on first use, and only its API-validity rules run (they are never
 * suppressible nor configurable, so the other rules do not change what they find).
 */
export function apiRejections(inputs: readonly unknown[], minor?: number): string[][] {
  const objects = inputs as readonly (WireObject | undefined)[];
  const out: string[][] = objects.map(() => []);
  if (!objects.some((o) => o?.kind === 'DaemonSet')) return out;
  // Loaded here so that what imports this module (the coverage, diff and plan commands) starts without the catalogue.
  const { checkManifests } = require('./engine') as typeof import('./engine');
  const { RuleCategory } = require('./types') as typeof import('./types');
  if (apiValidityOnly === undefined) {
    const { RULES } = require('./rules') as typeof import('./rules');
    const { RuleLevel } = require('./config') as typeof import('./config');
    const off = RULES.filter((r) => r.category !== RuleCategory.API_VALIDITY && r.configurable).map((r) => [r.id, RuleLevel.OFF]);
    apiValidityOnly = { rules: Object.fromEntries(off) };
  }
  const report = checkManifests(objects, { ...apiValidityOnly, kubernetesVersion: versionOf(minor) });
  for (const f of report.findings) {
    if (f.category === RuleCategory.API_VALIDITY && !f.suppressed && objects[f.objectIndex]?.kind === 'DaemonSet') {
      out[f.objectIndex].push(`${f.ruleId}: ${f.path}: ${f.message}`);
    }
  }
  return out;
}

provideApiValidator(apiRejections);
