/**
 * Synth-time policy checks for cdk8s apps: one validation on the App renders every `ApiObject` in the tree
 * (NodeService DaemonSets, cdk8s-plus DaemonSets, raw ApiObjects, `Include`d manifests), runs the rule catalogue
 * over all of them together, fails synthesis on error findings and prints a summary of warnings. Suppressions are
 * written as annotations on the objects, so the CLI and reviewers see the same exceptions.
 */

import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { DEFAULT_KUBERNETES_VERSION, KubernetesVersion } from '../k8s/api-fields/versions';
import { findRule, mergeConfigs, PolicyConfigError, resolveConfig, RuleConfig, unknownRuleMessage } from './config';
import { checkInputFingerprint, checkManifests, describeObject, Finding, ObjectRef, PolicyReport } from './engine';
import { MIN_REASON_LENGTH, ON_DELETE_REASON_ANNOTATION } from './host-access';
import { isValidReason, SUPPRESSION_ANNOTATION_PREFIX, suppressionAnnotationKey } from './suppression';
import { Severity } from './types';
import { problemList, PropProblem, show } from '../k8s/node-service-error';
import { checkArguments, implementing, json, list, map, object, opt, req, str } from '../k8s/shape';

/** The shape of {@link NodeServiceChecksProps} (the levels, registries and version are checked by `resolveConfig`). */
const CHECKS_PROPS = opt(
  object('NodeServiceChecksProps', {
    rules: opt(map(str)),
    imageRegistries: opt(list(str)),
    kubernetesVersion: opt(str),
    logger: opt(implementing('IPolicyLogger', { log: req(json) })),
  }),
);
/** A construct, as the checks take it. */
const CONSTRUCT = req(implementing('IConstruct (a construct)', { node: req(json) }));

/** Where synth-time warning summaries go. */
export interface IPolicyLogger {
  /** Receives one summary message (several lines) per synthesis that produced warnings. */
  log(message: string): void;
}

/** Ready-made loggers for {@link NodeServiceChecksProps.logger}. */
export class PolicyLoggers {
  /** Writes summaries to standard error. */
  public static stderr(): IPolicyLogger {
    checkArguments('PolicyLoggers.stderr', arguments, []);
    return { log: (message: string) => void process.stderr.write(message.endsWith('\n') ? message : `${message}\n`) };
  }

  /** Discards summaries (for tests). */
  public static silent(): IPolicyLogger {
    checkArguments('PolicyLoggers.silent', arguments, []);
    return { log: () => undefined };
  }

  private constructor() {}
}

/** Options of {@link NodeServiceChecks.of}. */
export interface NodeServiceChecksProps extends RuleConfig {
  /**
   * Where to print the summary of warnings after each synthesis.
   *
   * @default PolicyLoggers.stderr()
   */
  readonly logger?: IPolicyLogger;
}

const CHECKS = new WeakMap<IConstruct, NodeServiceChecks>();
/** Constructs with a validation that reports their findings. */
const REPORTERS = new WeakSet<IConstruct>();

/**
 * The construct a finding on `object` belongs to: the construct that wraps it when the object is a construct's own
 * `Resource` (NodeService, cdk8s-plus workloads), else the object itself.
 */
function ownerOf(object: IConstruct): IConstruct {
  const scope = object.node.scope;
  return object.node.id === 'Resource' && scope && scope.node.scope ? scope : object;
}

/** The construct at `path` below `root`, if any. */
function findByPath(root: IConstruct, path: string): IConstruct | undefined {
  return root.node.findAll().find((c) => c.node.path === path);
}
/** Suppressions declared per construct (rule id → reason), re-applied at synthesis to ApiObjects added later. */
const DECLARED = new WeakMap<IConstruct, Map<string, string>>();
/** Constructs with declared suppressions, per App root. */
const DECLARED_BY_ROOT = new WeakMap<IConstruct, Set<IConstruct>>();

function mergeReason(existing: string | undefined, reason: string): string {
  if (existing === undefined || existing === '') return reason;
  if (existing.includes(reason)) return existing;
  return `${existing}; ${reason}`;
}

function annotate(construct: IConstruct, declared: ReadonlyMap<string, string>): void {
  for (const child of construct.node.findAll()) {
    if (!ApiObject.isApiObject(child)) continue;
    const current = (child.metadata.toJson()?.annotations ?? {}) as { [key: string]: string };
    for (const [ruleId, reason] of declared) {
      const key = suppressionAnnotationKey(ruleId);
      const merged = mergeReason(current[key], reason);
      if (merged !== current[key]) child.metadata.addAnnotation(key, merged);
    }
  }
}

/** Writes the suppressions declared anywhere in the App of `root` onto the ApiObjects they cover. */
function applyDeclared(root: IConstruct): void {
  for (const construct of DECLARED_BY_ROOT.get(root) ?? []) {
    const declared = DECLARED.get(construct);
    if (declared) annotate(construct, declared);
  }
}

/** A copy of a report that shares nothing mutable with it (findings of one object keep sharing one copied ref). */
function copyReport(report: PolicyReport): PolicyReport {
  const refs = new Map<ObjectRef, ObjectRef>();
  const findings = report.findings.map((f): Finding => {
    let object = refs.get(f.object);
    if (!object) {
      object = { ...f.object };
      refs.set(f.object, object);
    }
    return { ...f, object };
  });
  return { ...report, findings };
}

/** The App methods that run one synthesis each (and, inside it, the App's validations once per chart plus once). */
const SYNTHESIS_METHODS = ['synth', 'synthYaml'] as const;

/**
 * Set on `globalThis` once the checks have run in this process: the loader of the library's bundle
 * (scripts/code-cache.js) then knows that the code cache it saves at exit holds the code a synthesis runs, not only
 * what loading the library compiled, and replaces a cache saved by a process that only loaded it.
 */
const CHECKS_RAN = Symbol.for('cdk8s-node-services.checks-ran');

/** How cdk8s starts the error that lists the validation errors of an App. */
const VALIDATION_HEADER = 'Validation failed with the following errors:';

/**
 * Rewrites cdk8s's validation error so that it reads as one list: its entries (`[<construct path>] text`, continued by
 * more deeply indented lines) sorted by construct path (in order of registration within one path), each once.
 */
function tidyValidationError(e: unknown): void {
  if (!(e instanceof Error) || !e.message.startsWith(`${VALIDATION_HEADER}\n`)) return;
  const entries: string[] = [];
  for (const line of e.message.slice(VALIDATION_HEADER.length + 1).split('\n')) {
    if (line.startsWith('  [') || entries.length === 0) entries.push(line);
    else entries[entries.length - 1] += `\n${line}`;
  }
  const pathOf = (entry: string): string => /^ {2}\[([^\]]*)\]/.exec(entry)?.[1] ?? '';
  const sorted = [...new Set(entries)].sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
  const message = `${VALIDATION_HEADER}\n${sorted.join('\n')}`;
  if (typeof e.stack === 'string') e.stack = e.stack.replace(e.message, message);
  e.message = message;
}

/**
 * The policy checks of one cdk8s App. Obtain it with {@link NodeServiceChecks.of}; the first call registers one
 * validation on the App, later calls only merge configuration, so constructs may call it freely.
 */
export class NodeServiceChecks {
  /**
   * Returns the checks of the App that contains `scope`, registering them on first use. `props` are merged into the
   * App's configuration (rule levels override, registry lists are joined, the last logger wins).
   *
   * @throws when the configuration names an unknown rule, an unknown level, or weakens an API-validity rule
   */
  public static of(scope: IConstruct, props?: NodeServiceChecksProps): NodeServiceChecks {
    checkArguments('NodeServiceChecks.of', arguments, [
      ['scope', CONSTRUCT],
      ['props', CHECKS_PROPS],
    ]);
    const root = scope.node.root;
    let checks = CHECKS.get(root);
    if (!checks) {
      checks = new NodeServiceChecks(root);
      CHECKS.set(root, checks);
      const registered = checks;
      // The App's validation runs the checks and hands each finding to a validation of the construct it belongs to,
      // so that cdk8s prints every finding once, after that construct's path (not after the App's empty one).
      root.node.addValidation({ validate: () => registered.distribute(registered.validate()) });
      registered.observeSyntheses();
    }
    if (props) checks.configure(scope, props);
    return checks;
  }

  /**
   * The Kubernetes version the App containing `scope` targets: the `kubernetesVersion` given to
   * {@link NodeServiceChecks.of} so far, else 1.28. Constructs whose props can emit objects or fields of a newer
   * version read it at construction, so declare the target before constructing them. Registers nothing.
   */
  public static kubernetesVersionOf(scope: IConstruct): KubernetesVersion {
    checkArguments('NodeServiceChecks.kubernetesVersionOf', arguments, [['scope', CONSTRUCT]]);
    return CHECKS.get(scope.node.root)?.ruleConfig.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  }

  private ruleConfig: RuleConfig = {};
  private logger: IPolicyLogger = PolicyLoggers.stderr();
  /** The report of the last run, kept private: the cache and the error messages rely on it staying unchanged. */
  private report?: PolicyReport;
  /** The copy of {@link report} handed out by {@link lastReport}, made on first access after each run. */
  private publishedReport?: PolicyReport;
  /**
   * What {@link report} was computed from: the rendered manifests and the configuration, kept as they are, and their
   * fingerprint once a later run needed it (`null`: not reusable).
   */
  private reportInputs?: { readonly manifests: readonly any[]; readonly config: RuleConfig; fingerprint?: string | null };
  /** How many synthesis methods of the App are running (nested calls count as one synthesis). */
  private synthesisDepth = 0;
  /** A fresh object per synthesis while one runs (renders may be reused within it), else undefined. */
  private synthesis?: object;
  /** The warning summary of the latest run inside the current synthesis, printed when it ends. */
  private pendingSummary?: string;
  /** The errors of the current synthesis' first validation run (cdk8s validates again per chart). */
  private synthesisErrors?: string[];

  private constructor(private readonly root: IConstruct) {}

  /**
   * An identity of the synthesis in progress (`app.synth()`/`app.synthYaml()`), or `undefined` outside one. Within one
   * synthesis the tree does not change, so an object may render once and serve both the checks and the output.
   * @internal
   */
  public get _synthesis(): object | undefined {
    return this.synthesis;
  }

  /** The merged rule configuration. */
  public get config(): RuleConfig {
    return this.ruleConfig;
  }

  /**
   * The report of the last synthesis (every finding, suppressed ones included), or `undefined` before the first. It
   * is a copy: changing it does not change what later runs report.
   */
  public get lastReport(): PolicyReport | undefined {
    if (this.report && !this.publishedReport) this.publishedReport = copyReport(this.report);
    return this.publishedReport;
  }

  /**
   * Runs the checks now over every DaemonSet of the App (with the Namespaces among its ApiObjects for cross-object
   * rules) and returns one message per error finding
   * (`[<construct path>] <rule-id>: <message> at <json path>. Fix: <fix>`). Synthesis calls this through the App's
   * validation; warnings are summarized to the logger.
   *
   * cdk8s validates the App once per `app.synth()`/`app.synthYaml()` and once more per chart it renders, so this
   * runs several times per synthesis over the same tree: inside `app.synth()`/`app.synthYaml()` the first run's result
   * serves the later ones (validations must not change the tree). Across syntheses every run renders the objects again
   * (a JSON patch or a lazy value may have changed them), and the rules run only when the rendered manifests or the
   * configuration differ from the previous run, compared by an exact fingerprint.
   * Inside `app.synth()`/`app.synthYaml()` the warning summary of the last run is printed once, when the
   * synthesis ends; a run outside them (e.g. `Testing.synth(chart)`, or a direct call) prints its own.
   */
  public validate(): string[] {
    // cdk8s runs the App's validations once more per chart within one synthesis, over the same tree: check once.
    if (this.synthesisDepth > 0 && this.synthesisErrors !== undefined) return [...this.synthesisErrors];
    applyDeclared(this.root);
    const objects: ApiObject[] = [];
    const manifests: any[] = [];
    const errors: string[] = [];
    for (const child of this.root.node.findAll()) {
      // Only DaemonSets are checked, and Namespaces serve the cross-object rule: rendering nothing else keeps the
      // checks from doubling the cost of synthesis.
      if (!ApiObject.isApiObject(child) || (child.kind !== 'DaemonSet' && child.kind !== 'Namespace')) continue;
      let json: any;
      try {
        json = child.toJson();
      } catch (e) {
        errors.push(`[${ownerOf(child).node.path}] node-services checks could not render this object: ${(e as Error).message}`);
        continue;
      }
      objects.push(child);
      manifests.push(json);
    }
    const inputs = { manifests, config: this.ruleConfig, fingerprint: undefined as string | null | undefined };
    let report = this.report;
    if (report === undefined || !this.sameInputs(inputs)) report = checkManifests(manifests, this.ruleConfig);
    (globalThis as Record<symbol, unknown>)[CHECKS_RAN] = true;
    this.report = report;
    this.reportInputs = inputs;
    this.publishedReport = undefined;
    const warnings = new Map<string, { count: number; text: string }>();
    for (const f of report.findings) {
      // Info findings are neither thrown nor summarized: they stay in the report only (no construct path needed).
      if (f.severity !== Severity.ERROR && f.severity !== Severity.WARNING) continue;
      if (f.suppressed || reportedByOwner(objects[f.objectIndex], f.ruleId)) continue;
      const path = ownerOf(objects[f.objectIndex]).node.path;
      if (f.severity === Severity.ERROR) {
        errors.push(`[${path}] ${f.ruleId}: ${f.message} at ${f.path}. Fix: ${f.fix}`);
      } else if (f.severity === Severity.WARNING) {
        const key = `${f.ruleId}\u0000${f.objectIndex}`;
        const entry = warnings.get(key);
        if (entry) entry.count++;
        else warnings.set(key, { count: 1, text: `${f.ruleId}: ${describeObject(f.object)} [${path}]` });
      }
    }
    let summary: string | undefined;
    if (warnings.size > 0) {
      const lines = [...warnings.values()].map((w) => `  ${w.text}${w.count > 1 ? ` (${w.count} findings)` : ''}`);
      const count = [...warnings.values()].reduce((n, w) => n + w.count, 0);
      summary = `node-services: ${count} policy warning${count === 1 ? '' : 's'} (synthesis continues; run \`node-services lint\` on the output for details):\n${lines.join('\n')}\n`;
    }
    if (this.synthesisDepth > 0) {
      this.pendingSummary = summary;
      this.synthesisErrors = [...errors];
    } else if (summary !== undefined) {
      this.logger.log(summary);
    }
    return errors;
  }

  /**
   * Whether `inputs` are exactly those of the last run, compared by fingerprint. A synthesis that is never followed by
   * another pays for no fingerprint: the last run's fingerprint is computed here, when a later run first compares.
   * That is exact because the manifests are what `toJson()` rendered for this run: fresh objects that nothing else
   * changes (the render a NodeService shares within one synthesis is not changed after it either).
   */
  private sameInputs(inputs: { readonly manifests: readonly any[]; readonly config: RuleConfig; fingerprint?: string | null }): boolean {
    const last = this.reportInputs;
    if (last === undefined) return false;
    if (last.fingerprint === undefined) last.fingerprint = checkInputFingerprint(last.manifests, last.config) ?? null;
    if (last.fingerprint === null) return false;
    inputs.fingerprint = checkInputFingerprint(inputs.manifests, inputs.config) ?? null;
    return inputs.fingerprint === last.fingerprint;
  }

  /**
   * Wraps the App's synthesis methods (`synth`, `synthYaml`) on this App instance so that the validation runs of one
   * synthesis print one warning summary, when it ends (also when it fails). The methods keep their behaviour and
   * results. An App whose methods cannot be replaced (a frozen object) keeps printing one summary per run.
   */
  private observeSyntheses(): void {
    const app = this.root as unknown as Record<string, unknown>;
    const during = <T>(synthesize: () => T): T => this.duringSynthesis(synthesize);
    for (const method of SYNTHESIS_METHODS) {
      const original = app[method];
      if (typeof original !== 'function' || !Object.isExtensible(app)) continue;
      Object.defineProperty(app, method, {
        configurable: true,
        enumerable: false,
        writable: true,
        value: function (this: unknown, ...args: unknown[]): unknown {
          return during(() => original.apply(this, args));
        },
      });
    }
  }

  private duringSynthesis<T>(synthesize: () => T): T {
    if (this.synthesisDepth === 0) {
      this.pendingSummary = undefined;
      this.warned.clear();
      this.synthesisErrors = undefined;
      this.synthesis = {};
    }
    this.synthesisDepth++;
    try {
      return synthesize();
    } catch (e) {
      if (this.synthesisDepth === 1) tidyValidationError(e);
      throw e;
    } finally {
      this.synthesisDepth--;
      if (this.synthesisDepth === 0) {
        const summary = this.pendingSummary;
        this.pendingSummary = undefined;
        this.synthesisErrors = undefined;
        this.synthesis = undefined;
        if (summary !== undefined) this.logger.log(summary);
      }
    }
  }

  /**
   * Hands each message (`[<path>] text`) to a validation of the construct at `<path>`, registered once per construct,
   * which returns it without the path (cdk8s prefixes it). Returns the messages no construct of the tree can take.
   */
  private distribute(messages: string[]): string[] {
    const byPath = new Map<string, string[]>();
    for (const m of messages) {
      const match = /^\[([^\]]*)\] /.exec(m);
      const path = match ? match[1] : '';
      byPath.set(path, [...(byPath.get(path) ?? []), match ? m.slice(match[0].length) : m]);
    }
    this.pending = byPath;
    const rest: string[] = [];
    for (const [path, texts] of byPath) {
      const construct = path === '' ? undefined : findByPath(this.root, path);
      if (!construct) {
        rest.push(...texts.map((t) => (path ? `[${path}] ${t}` : t)));
        continue;
      }
      if (!REPORTERS.has(construct)) {
        REPORTERS.add(construct);
        construct.node.addValidation({ validate: () => [...(this.pending.get(construct.node.path) ?? [])] });
      }
    }
    return rest;
  }

  /**
   * Adds a warning found by a construct's own synth-time check to the summary of the current synthesis (printed when
   * it ends), or prints it at once outside a synthesis.
   * @internal
   */
  public _warn(text: string): void {
    if (this.synthesisDepth > 0) {
      if (this.warned.has(text)) return;
      this.warned.add(text);
      this.pendingSummary = `${this.pendingSummary ?? 'node-services: construct warnings (synthesis continues):\n'}  ${text}\n`;
    } else {
      this.logger.log(`node-services: ${text}\n`);
    }
  }

  /** Warnings already added to the current synthesis' summary (validations run several times per synthesis). */
  private warned = new Set<string>();

  /** The messages of the latest run, by the path of the construct they belong to. */
  private pending = new Map<string, string[]>();

  private configure(scope: IConstruct, props: NodeServiceChecksProps): void {
    const merged = mergeConfigs(this.ruleConfig, {
      rules: props.rules,
      imageRegistries: props.imageRegistries,
      kubernetesVersion: props.kubernetesVersion,
    });
    try {
      resolveConfig(merged);
    } catch (e) {
      if (e instanceof PolicyConfigError) throw new PolicyConfigError(`[${scope.node.path}] NodeServiceChecks: ${e.message}`);
      throw e;
    }
    this.ruleConfig = merged;
    if (props.logger) this.logger = props.logger;
  }
}

/**
 * Whether `Suppressions.add(construct, ruleId, reason)` is refused: its problems (unknown rule id, a rule that may not
 * be suppressed, a short reason) are then reported at synthesis by a validation of `construct`.
 */
function suppressionRefused(construct: IConstruct, ruleId: string, reason: string): boolean {
  const problems: PropProblem[] = [];
  const rule = findRule(ruleId);
  const field = (arg: string): string => `Suppressions.add(${arg})`;
  if (!rule) {
    problems.push({
      field: field('ruleId'),
      value: show(ruleId),
      problem: unknownRuleMessage(ruleId),
      fix: 'name a rule of the catalogue',
    });
  } else if (!rule.suppressible) {
    problems.push({
      field: field('ruleId'),
      value: show(ruleId),
      problem: `rule '${ruleId}' cannot be suppressed (${rule.category === 'api-validity' ? 'the API server would reject the object' : 'it guards suppressions'})`,
      fix: 'fix the object instead',
    });
  }
  if (!isValidReason(reason)) {
    problems.push({
      field: field('reason'),
      value: show(reason),
      problem: `the reason for suppressing '${ruleId}' must be at least ${MIN_REASON_LENGTH} characters`,
      fix: 'say why the finding is acceptable here',
    });
  }
  if (problems.length === 0) return false;
  construct.node.addValidation({ validate: () => [problemList('arguments', problems, '    ')] });
  return true;
}

/**
 * The identity of the synthesis in progress of the App containing `scope` (`NodeServiceChecks._synthesis`), or
 * `undefined` outside one or before the App has checks: for the library's own constructs, which read it on every
 * render (no argument check, registers nothing).
 * @internal
 */
export function synthesisOf(scope: IConstruct): object | undefined {
  return CHECKS.get(scope.node.root)?._synthesis;
}

/** For an object, the rules whose finding the construct that built it reports itself, and when it does. */
const OWNER_REPORTS = new WeakMap<ApiObject, Map<string, () => boolean>>();

/**
 * Declares that the construct that built `object` reports the finding of rule `ruleId` on it itself, as a synthesis
 * error, whenever `reports()` holds (its own check, with a message that names its props): synthesis then shows that
 * error alone, not the rule's finding beside it. `lastReport` still holds the finding.
 * @internal
 */
export function reportAtSynthByOwner(object: ApiObject, ruleId: string, reports: () => boolean): void {
  let rules = OWNER_REPORTS.get(object);
  if (!rules) {
    rules = new Map();
    OWNER_REPORTS.set(object, rules);
  }
  rules.set(ruleId, reports);
}

/** Whether the construct that built `object` reports `ruleId`'s finding on it itself (see {@link reportAtSynthByOwner}). */
function reportedByOwner(object: ApiObject, ruleId: string): boolean {
  const reports = OWNER_REPORTS.get(object)?.get(ruleId);
  return reports !== undefined && reports();
}

/** Suppressions of policy findings, recorded as annotations on the objects so that reviewers and the CLI see them. */
export class Suppressions {
  /** The prefix of suppression annotations (`SUPPRESSION_ANNOTATION_PREFIX`). */
  public static readonly ANNOTATION_PREFIX: string = SUPPRESSION_ANNOTATION_PREFIX;
  /** The annotation that records the reason of an OnDelete update strategy (`ON_DELETE_REASON_ANNOTATION`). */
  public static readonly ON_DELETE_REASON_ANNOTATION: string = ON_DELETE_REASON_ANNOTATION;

  /** The annotation key that suppresses `ruleId` (`suppressionAnnotationKey`). */
  public static annotationKey(ruleId: string): string {
    checkArguments('Suppressions.annotationKey', arguments, [['ruleId', req(str)]]);
    return suppressionAnnotationKey(ruleId);
  }

  /**
   * Suppresses `ruleId` on every ApiObject at or below `construct` (also ones added later), recording `reason` in
   * the annotation `ignore-check.node-services.cdk8s.io/<rule-id>`. Reasons for the same rule are joined with `; `.
   *
   * An unknown rule id, a rule that may not be suppressed (API validity) or a reason shorter than 10 characters is
   * reported at synthesis, under the construct's path, with the app's other problems; the suppression is then not
   * recorded.
   */
  public static add(construct: IConstruct, ruleId: string, reason: string): void {
    checkArguments('Suppressions.add', arguments, [
      ['construct', CONSTRUCT],
      ['ruleId', req(str)],
      ['reason', req(str)],
    ]);
    if (suppressionRefused(construct, ruleId, reason)) return;
    const text = reason.trim();
    let declared = DECLARED.get(construct);
    if (!declared) {
      declared = new Map();
      DECLARED.set(construct, declared);
    }
    declared.set(ruleId, mergeReason(declared.get(ruleId), text));
    const root = construct.node.root;
    let set = DECLARED_BY_ROOT.get(root);
    if (!set) {
      set = new Set();
      DECLARED_BY_ROOT.set(root, set);
      // One validation per App re-applies every declared suppression at synthesis (to ApiObjects added since); the
      // App's checks apply them themselves before they render, so with checks this one has nothing left to do.
      root.node.addValidation({
        validate: () => {
          if (!CHECKS.has(root)) applyDeclared(root);
          return [];
        },
      });
    }
    set.add(construct);
    annotate(construct, declared);
  }

  private constructor() {}
}
