/**
 * Rule configuration: switch rules off, change their severity, configure the image registry allowlist and the target
 * Kubernetes version. Shared by
 * the synth-time checks, the CLI (`--config FILE`) and the cdk8s validation plugin.
 */

import { listedProblems, NodeServicesError, NodeServicesErrorCode } from '../k8s/node-services-error';
import { DEFAULT_KUBERNETES_VERSION, editDistance, KubernetesVersion, kubernetesVersionError } from '../k8s/api-fields';
import { allRules, rulesById } from './catalogue';
import { isObject, show } from './helpers';
import { IPolicyRule, ResolvedRuleConfig, Severity } from './types';

/** The level a rule is configured to. */
export enum RuleLevel {
  /** The rule does not run. */
  OFF = 'off',
  /** Findings are warnings. */
  WARNING = 'warning',
  /** Findings are errors. */
  ERROR = 'error',
}

/** Rule-level configuration. */
export interface RuleConfig {
  /**
   * Per rule id, `off`, `warning` or `error`. API-validity rules (and `invalid-suppression`) can only be `error`.
   *
   * @default - every rule at its catalogue severity
   */
  readonly rules?: { [ruleId: string]: RuleLevel };
  /**
   * Allowed image registry prefixes (matched on a path boundary, e.g. `registry.example.com/` or
   * `quay.io/prometheus/`). Images from anywhere else are `image-registry-not-allowed` errors.
   *
   * @default - no registry allowlist
   */
  readonly imageRegistries?: string[];
  /**
   * The Kubernetes version the manifests are meant for: `unknown-field` reports every field this version does not
   * have (supported: 1.28 to 1.33).
   *
   * @default KubernetesVersion.V1_28
   */
  readonly kubernetesVersion?: KubernetesVersion;
}

/**
 * A configuration that cannot be used: unknown rule id, unknown level, or an attempt to weaken a locked rule.
 * Its `code` is `INVALID_POLICY_CONFIG`.
 * It extends the built-in `Error`, which jsii cannot model: other languages receive the message.
 *
 * @jsii ignore
 */
export class PolicyConfigError extends NodeServicesError {
  /** @param message what is wrong, and where */
  constructor(message: string) {
    super(NodeServicesErrorCode.INVALID_POLICY_CONFIG, message, listedProblems(message));
    this.name = 'PolicyConfigError';
  }
}

/** A validated configuration, ready for the engine. */
export interface ResolvedConfig extends ResolvedRuleConfig {
  /** The effective level of each rule whose level was configured. */
  readonly levels: ReadonlyMap<string, RuleLevel>;
}

const LEVELS: readonly string[] = [RuleLevel.OFF, RuleLevel.WARNING, RuleLevel.ERROR];

/** The rule with this id, or `undefined`. */
export function findRule(id: string): IPolicyRule | undefined {
  return rulesById().get(id);
}

/** A sentence naming an unknown rule id and the closest known one. */
export function unknownRuleMessage(id: string): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const r of allRules()) {
    const d = editDistance(id, r.id);
    if (d < bestDistance) {
      best = r.id;
      bestDistance = d;
    }
  }
  const hint = best !== undefined && bestDistance <= Math.max(3, Math.floor(id.length / 3)) ? ` (did you mean '${best}'?)` : '';
  return `unknown rule id '${id}'${hint}; see docs/rules.md for the catalogue`;
}

/** Validates a configuration and resolves it for the engine; throws {@link PolicyConfigError} when it is unusable. */
export function resolveConfig(config: RuleConfig | undefined): ResolvedConfig {
  const levels = new Map<string, RuleLevel>();
  for (const [id, level] of Object.entries(config?.rules ?? {})) {
    const rule = rulesById().get(id);
    if (!rule) throw new PolicyConfigError(`rules: ${unknownRuleMessage(id)}`);
    if (!LEVELS.includes(level)) {
      throw new PolicyConfigError(`rules.${id}: level ${show(level)} is not one of ${LEVELS.join(', ')}`);
    }
    if (!rule.configurable && level !== RuleLevel.ERROR) {
      throw new PolicyConfigError(
        `rules.${id}: cannot be set to '${level}': ${rule.category === 'api-validity' ? 'the API server would reject the object anyway' : 'the rule guards suppressions'}; fix the manifest instead`,
      );
    }
    levels.set(id, level);
  }
  const registries = config?.imageRegistries ?? [];
  if (!Array.isArray(registries))
    throw new PolicyConfigError(`imageRegistries must be a list of registry prefixes (has ${show(registries)})`);
  registries.forEach((r, i) => {
    if (typeof r !== 'string' || r.trim() === '' || /\s/.test(r)) {
      throw new PolicyConfigError(`imageRegistries[${i}]: ${show(r)} is not a registry prefix such as 'registry.example.com/'`);
    }
  });
  const kubernetesVersion = config?.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  const versionError = kubernetesVersionError(kubernetesVersion);
  if (versionError !== undefined) throw new PolicyConfigError(`kubernetesVersion: ${show(kubernetesVersion)} ${versionError}`);
  return { levels, imageRegistries: [...registries], kubernetesVersion };
}

/**
 * Reads a configuration from a parsed YAML/JSON value (`{rules: {<id>: off|warning|error}, imageRegistries: [...],
 * kubernetesVersion: '1.30'}`), checking its shape, rule ids, levels and version. `source` names the file in error messages.
 */
export function ruleConfigFromValue(value: unknown, source: string): RuleConfig {
  if (value === null || value === undefined) return {};
  if (!isObject(value))
    throw new PolicyConfigError(
      `${source}: must be a mapping with 'rules', 'imageRegistries' and/or 'kubernetesVersion' (has ${show(value)})`,
    );
  for (const key of Object.keys(value)) {
    if (key !== 'rules' && key !== 'imageRegistries' && key !== 'kubernetesVersion') {
      throw new PolicyConfigError(`${source}: unknown key '${key}' (expected 'rules', 'imageRegistries' or 'kubernetesVersion')`);
    }
  }
  const written = value.rules ?? {};
  if (!isObject(written))
    throw new PolicyConfigError(`${source}: 'rules' must map rule ids to off, warning or error (has ${show(written)})`);
  // YAML 1.1 (kubectl's, and this reader's) reads a plain `off` as the boolean false.
  const rules = Object.fromEntries(Object.entries(written).map(([id, level]) => [id, level === false ? RuleLevel.OFF : level]));
  const config: RuleConfig = {
    rules: rules as { [id: string]: RuleLevel },
    imageRegistries: value.imageRegistries,
    ...(value.kubernetesVersion !== undefined ? { kubernetesVersion: value.kubernetesVersion } : {}),
  };
  try {
    resolveConfig(config);
  } catch (e) {
    if (e instanceof PolicyConfigError) throw new PolicyConfigError(`${source}: ${e.message}`);
    throw e;
  }
  return config;
}

/** Merges two configurations: rule levels and the Kubernetes version of `b` override those of `a`; registry lists are joined. */
export function mergeConfigs(a: RuleConfig | undefined, b: RuleConfig | undefined): RuleConfig {
  const registries = [...(a?.imageRegistries ?? []), ...(b?.imageRegistries ?? [])];
  const kubernetesVersion = b?.kubernetesVersion ?? a?.kubernetesVersion;
  return {
    rules: { ...(a?.rules ?? {}), ...(b?.rules ?? {}) },
    imageRegistries: [...new Set(registries)],
    ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
  };
}

/** The severity a rule's findings get under a resolved configuration, or `undefined` when the rule is off. */
export function effectiveSeverity(rule: IPolicyRule, config: ResolvedConfig): Severity | undefined {
  const level = config.levels.get(rule.id);
  if (level === undefined) return rule.severity;
  if (level === RuleLevel.OFF) return undefined;
  return level === RuleLevel.ERROR ? Severity.ERROR : Severity.WARNING;
}
