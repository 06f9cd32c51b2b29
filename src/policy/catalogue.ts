/**
 * The rule catalogue, loaded on first use: requiring the library loads none of the rules (one module each), checking
 * manifests or resolving a rule configuration loads them all, once.
 */

import type { IPolicyRule } from './types';

let rules: readonly IPolicyRule[] | undefined;
let byId: ReadonlyMap<string, IPolicyRule> | undefined;

/** Every rule, in documentation order. */
export function allRules(): readonly IPolicyRule[] {
  rules ??= (require('./rules') as typeof import('./rules')).RULES;
  return rules;
}

/** The rules by id. */
export function rulesById(): ReadonlyMap<string, IPolicyRule> {
  byId ??= new Map(allRules().map((r) => [r.id, r]));
  return byId;
}
