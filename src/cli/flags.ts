/** Parsers of the flags several commands share, each refusing a bad value with one {@link InputError}. */

import { InputError } from './io';
import { KubernetesVersion, parseKubernetesVersion } from '../k8s/api-fields/versions';
import type { TaxBudget } from '../coverage/node-tax';

/**
 * The version of `--kubernetes-version` (the one version grammar of `k8s/`) and its minor, or undefined when not
 * given.
 */
export function kubernetesVersionFlag(text: string | undefined): { version: KubernetesVersion; minor: number } | undefined {
  if (text === undefined) return undefined;
  const parsed = parseKubernetesVersion(text);
  if (parsed.error !== undefined) throw new InputError(`--kubernetes-version ${JSON.stringify(text)} ${parsed.error}`);
  return { version: parsed.version!, minor: parsed.minor! };
}

/** `--budget cpu=8%,memory=10%` → a node-tax budget, or undefined when not given. */
export function budgetFlag(text: string | undefined): TaxBudget | undefined {
  if (text === undefined) return undefined;
  const budget: { cpuPercent?: number; memoryPercent?: number } = {};
  for (const part of text.split(',')) {
    const m = /^\s*(cpu|memory)\s*=\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(part);
    const value = m ? Number(m[2]) : NaN;
    if (!m || !(value > 0 && value <= 100)) {
      throw new InputError(
        `--budget ${JSON.stringify(text)}: ${JSON.stringify(part)} is not cpu=<percent> or memory=<percent> (0 < percent <= 100), e.g. --budget cpu=8%,memory=10%`,
      );
    }
    if (m[1] === 'cpu') budget.cpuPercent = value;
    else budget.memoryPercent = value;
  }
  return budget;
}
