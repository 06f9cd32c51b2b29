/**
 * The policy engine: runs the rule catalogue over plain manifests in one pass, applies the rule configuration and
 * the suppression annotations, and returns findings that name the object, the field, the bad value and the fix.
 * Imports neither cdk8s nor cdk8s-plus, so the CLI can use it directly.
 */

import { declareKindHint, findingOutcome, KindOrigin, ruleSeverityForKind } from './allowance';
import { effectiveSeverity, findRule, resolveConfig, ResolvedConfig, RuleConfig } from './config';
import { KindSource, NodeServiceKind } from './kinds';
import { inputObjects } from './rbac';
import { allRules } from './catalogue';
import { isValidReason, readSuppressions } from './suppression';
import { InputObjects, IPolicyRule, RuleCategory, RuleContext, RuleInfo, Severity } from './types';
import { buildPodView } from './view';
import { ownString } from '../k8s/json';
import type { WireNamespace, WireObject } from '../k8s/wire';

/** Identifies the object a finding belongs to. */
export interface ObjectRef {
  /** `apiVersion` as written (empty when missing). */
  readonly apiVersion: string;
  /** `kind` as written. */
  readonly kind: string;
  /** `metadata.namespace`, when set. */
  readonly namespace?: string;
  /** `metadata.name` (empty when missing). */
  readonly name: string;
}

/** One finding of one rule on one object. */
export interface Finding {
  /** The rule id. */
  readonly ruleId: string;
  /** The effective severity (after configuration). */
  readonly severity: Severity;
  /** The rule's category. */
  readonly category: RuleCategory;
  /** The rule's one-line title. */
  readonly title: string;
  /** The object. */
  readonly object: ObjectRef;
  /** Index of the object in the checked list. */
  readonly objectIndex: number;
  /** JSON path of the offending field. */
  readonly path: string;
  /** What is wrong, naming the bad value. */
  readonly message: string;
  /** How to fix it. */
  readonly fix: string;
  /** Whether a suppression annotation on the object covers this finding. */
  readonly suppressed: boolean;
  /** The suppression's written reason, when suppressed. */
  readonly suppressionReason?: string;
  /** The node-service kind the object was checked as. */
  readonly serviceKind: NodeServiceKind;
  /** Where that kind came from (annotation, inferred, default). */
  readonly kindSource: KindSource;
}

/** A checked object: which kind it was checked as, and why. */
export interface CheckedObject {
  /** Index of the object in the checked list. */
  readonly objectIndex: number;
  /** The object. */
  readonly object: ObjectRef;
  /** The node-service kind the rules applied. */
  readonly serviceKind: NodeServiceKind;
  /** Where the kind came from. */
  readonly kindSource: KindSource;
  /** What in the manifest shows an inferred kind (empty otherwise). */
  readonly kindEvidence: string;
}

/** The result of checking a list of manifests. */
export interface PolicyReport {
  /** Every finding, suppressed ones included (marked), in object then catalogue order. */
  readonly findings: Finding[];
  /** How many objects were checked (DaemonSets). */
  readonly checkedObjects: number;
  /** How many objects were not checked as DaemonSets (other kinds, or not Kubernetes objects); rules for every kind (`unknown-field`) still check them. */
  readonly skippedObjects: number;
  /** Unsuppressed error findings. */
  readonly errorCount: number;
  /** Unsuppressed warning findings. */
  readonly warningCount: number;
  /** Unsuppressed info findings. */
  readonly infoCount: number;
  /** Suppressed findings. */
  readonly suppressedCount: number;
  /** Every checked object (DaemonSet) with its kind, in input order. */
  readonly objects: CheckedObject[];
}

/** `kind (annotation)`, `kind (inferred from …)` or `kind (default)` for reports. */
export function describeKind(o: { serviceKind: string; kindSource: KindSource; kindEvidence?: string }): string {
  if (o.kindSource === KindSource.INFERRED) return `${o.serviceKind} (inferred from ${o.kindEvidence || 'its shape'})`;
  if (o.kindSource === KindSource.ANNOTATION) return `${o.serviceKind} (annotation)`;
  return `${o.serviceKind} (no kind annotation, nothing in the shape identifies a kind)`;
}

/** A rule that runs, with its severity under the configuration and whether the configuration set it. */
interface ActiveRule {
  readonly rule: IPolicyRule;
  /** The configured level's severity, else the rule's default. */
  readonly severity: Severity;
  /** Whether the configuration sets the rule's level (which then overrides the severities by kind). */
  readonly configured: boolean;
}

/** A rule of one plan, with its severity for the plan's kind. */
interface PlannedRule extends ActiveRule {
  /** Whether the severity is above the declared kind's (an inferred kind): findings then say how to declare it. */
  readonly softened: boolean;
}

/**
 * The rules to run on the objects of one check, per node-service kind, per where the kind comes from (declared,
 * inferred, none) and per whether the pod runs on Windows, each with its severity for them: worked out once per
 * combination, not once per object.
 */
class RulePlans {
  private readonly plans = new Map<string, readonly PlannedRule[]>();

  /** `rules`: the rules that run, in catalogue order (the order of the findings). */
  constructor(private readonly rules: readonly ActiveRule[]) {}

  /** The rules that apply to an object of this kind, with their severities, in catalogue order. */
  public of(kind: NodeServiceKind, origin: KindOrigin, windows: boolean): readonly PlannedRule[] {
    const key = `${kind}|${origin.source}|${origin.byImage ? 'i' : ''}|${windows ? 'w' : ''}`;
    let plan = this.plans.get(key);
    if (plan === undefined) {
      const out: PlannedRule[] = [];
      for (const active of this.rules) {
        if (active.rule.linuxOnly && windows) continue;
        const { severity, softened } = ruleSeverityForKind(active.rule, active.severity, active.configured, kind, origin);
        if (severity !== undefined) out.push({ rule: active.rule, severity, configured: active.configured, softened });
      }
      plan = out;
      this.plans.set(key, plan);
    }
    return plan;
  }
}

/** Whether the engine checks this object (a DaemonSet). */
function isCheckedObject(object: unknown): boolean {
  return typeof object === 'object' && object !== null && (object as WireObject).kind === 'DaemonSet';
}

/** The {@link ObjectRef} of a manifest. */
function objectRef(input: unknown): ObjectRef {
  const object = input as WireObject | undefined;
  const metadata = typeof object?.metadata === 'object' && object.metadata !== null ? object.metadata : {};
  const ns = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : undefined;
  return {
    apiVersion: typeof object?.apiVersion === 'string' ? ownString(object.apiVersion) : '',
    kind: typeof object?.kind === 'string' ? ownString(object.kind) : '',
    namespace: ns === undefined ? undefined : ownString(ns),
    name: typeof metadata.name === 'string' ? ownString(metadata.name) : '',
  };
}

/** `Kind namespace/name` (or `Kind name`) for messages. */
export function describeObject(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name || '(unnamed)'}`;
}

/** The `Namespace` objects among `candidates` (the manifests of kind `Namespace`), by name; the last one of a name wins. */
function namespaceIndex(candidates: readonly unknown[]): Map<string, WireNamespace> {
  const out = new Map<string, WireNamespace>();
  for (const candidate of candidates) {
    const m = candidate as WireNamespace | undefined;
    if (m && typeof m === 'object' && m.kind === 'Namespace' && typeof m.metadata?.name === 'string') out.set(m.metadata.name, m);
  }
  return out;
}

/** What rules may know about other rules (for `invalid-suppression`), one frozen object per rule id. */
let RULE_INFO: Map<string, { readonly suppressible: boolean }> | undefined;
const ruleInfo = (id: string): { readonly suppressible: boolean } | undefined => {
  RULE_INFO ??= new Map(allRules().map((r) => [r.id, Object.freeze({ suppressible: r.suppressible })]));
  return RULE_INFO.get(id);
};

/**
 * Checks manifests against the rule catalogue. DaemonSets are checked (with their pod templates); other objects are
 * counted as skipped, checked only by the rules for every kind (`unknown-field`), and serve cross-object rules (a
 * DaemonSet's Namespace). Throws a `PolicyConfigError` when
 * `config` is unusable.
 * A TypeScript convenience, kept: the same as `PolicyEngine.check`, the form for every jsii language.
 */
export function checkManifests(manifests: readonly any[], config?: RuleConfig): PolicyReport {
  const run = new CheckRun(config, inputObjects(manifests));
  for (let objectIndex = 0; objectIndex < manifests.length; objectIndex++) {
    if (!(objectIndex in manifests)) continue; // a hole is no object (and not counted)
    run.check(manifests[objectIndex], objectIndex);
  }
  return run.report();
}

/**
 * One check of manifests given one at a time (for a stream of any size: no object is kept), against the index of
 * the objects the cross-object rules look up among all of them (`InputIndex` of `rbac.ts`, filled before the first
 * object is checked). {@link checkManifests} over a list is a run over its objects in order.
 *
 * @internal
 */
export class CheckRun {
  private readonly resolved: ResolvedConfig;
  private readonly daemonSetRules: RulePlans;
  private readonly allKindsRules: RulePlans;
  private readonly anyAllKinds: boolean;
  private readonly namespaces: ReadonlyMap<string, WireNamespace>;
  private readonly findings: Finding[] = [];
  private readonly objects: CheckedObject[] = [];
  private checked = 0;
  private skipped = 0;

  /** Throws a `PolicyConfigError` when `config` is unusable. */
  constructor(
    config: RuleConfig | undefined,
    private readonly index: InputObjects,
  ) {
    this.resolved = resolveConfig(config);
    const active: ActiveRule[] = [];
    for (const rule of allRules()) {
      const severity = effectiveSeverity(rule, this.resolved);
      if (severity !== undefined) active.push({ rule, severity, configured: this.resolved.levels.has(rule.id) });
    }
    this.daemonSetRules = new RulePlans(active);
    // Objects other than DaemonSets are skipped (and counted) but still given to the rules that check every kind.
    const allKindsActive = active.filter((a) => a.rule.allKinds);
    this.anyAllKinds = allKindsActive.length > 0;
    this.allKindsRules = new RulePlans(allKindsActive);
    this.namespaces = namespaceIndex(index.byKind.get('Namespace') ?? []);
  }

  /** Checks one object, the `objectIndex`-th of the check (which its findings name). */
  public check(object: unknown, objectIndex: number): void {
    const daemonSet = isCheckedObject(object);
    if (daemonSet) this.checked++;
    else {
      this.skipped++;
      if (!this.anyAllKinds || typeof object !== 'object' || object === null) return;
    }
    const view = buildPodView(object);
    const origin: KindOrigin = { source: view.kindSource, byImage: view.kindByImage };
    const ref = objectRef(object);
    const context: RuleContext = { view, namespaces: this.namespaces, objects: this.index, config: this.resolved, ruleInfo };
    if (daemonSet)
      this.objects.push({
        objectIndex,
        object: ref,
        serviceKind: view.kind,
        kindSource: view.kindSource,
        kindEvidence: ownString(view.kindEvidence),
      });
    const rules = (daemonSet ? this.daemonSetRules : this.allKindsRules).of(view.kind, origin, view.windows);
    const first = this.findings.length;
    const suppressions = objectSuppressions(view.annotations);
    for (let i = 0; i < rules.length; i++) this.runRule(rules[i], object, context, { objectIndex, ref, origin, suppressions });
    dropUndecodable(this.findings, first);
  }

  /** The report of the objects checked so far. */
  public report(): PolicyReport {
    return policyReport(this.findings, this.objects, this.checked, this.skipped);
  }

  private runRule(
    planned: PlannedRule,
    object: unknown,
    context: RuleContext,
    of: { objectIndex: number; ref: ObjectRef; origin: KindOrigin; suppressions: Map<string, string> | undefined },
  ): void {
    const { rule, severity, configured, softened } = planned;
    let results;
    try {
      results = rule.check(object, context);
    } catch (e) {
      results = [{ path: '', message: `the rule could not check this object: ${(e as Error).message}` }];
    }
    if (results.length === 0) return;
    const view = context.view;
    const reason = of.suppressions?.get(rule.id);
    for (const r of results) {
      const outcome = findingOutcome(r, severity, configured, softened, of.origin);
      if (outcome === undefined) continue;
      this.findings.push({
        ruleId: rule.id,
        severity: outcome.severity,
        category: rule.category,
        title: rule.title,
        object: of.ref,
        objectIndex: of.objectIndex,
        path: ownString(r.path),
        message: ownString(outcome.declareHint ? `${r.message}${declareKindHint(view.kind)}` : r.message),
        fix: rule.fix,
        suppressed: reason !== undefined,
        suppressionReason: reason,
        serviceKind: view.kind,
        kindSource: view.kindSource,
      });
    }
  }
}

/** The rule that reports values the API server cannot decode (`field-type-invalid`). */
const DECODE_RULE = 'field-type-invalid';

/**
 * Removes, from the findings of one object (from index `first`), the other API-validity findings at or below a
 * value that `field-type-invalid` reports: the API server refuses the object while decoding it, before any
 * validation of that value, so the value is reported once, with its type (`containerPort: 3000000000` is past int32,
 * not "a port from 1 to 65535"; a label value `true` is a boolean, not an invalid label value).
 */
function dropUndecodable(findings: Finding[], first: number): void {
  let paths: string[] | undefined;
  for (let i = first; i < findings.length; i++) if (findings[i].ruleId === DECODE_RULE) (paths ??= []).push(findings[i].path);
  if (paths === undefined) return;
  const undecodable = paths;
  const covered = (path: string): boolean =>
    undecodable.some((p) => path === p || (path.startsWith(p) && (path.charAt(p.length) === '.' || path.charAt(p.length) === '[')));
  let kept = first;
  for (let i = first; i < findings.length; i++) {
    const f = findings[i];
    if (f.ruleId !== DECODE_RULE && f.category === RuleCategory.API_VALIDITY && covered(f.path)) continue;
    findings[kept++] = f;
  }
  findings.length = kept;
}

/** The valid suppressions of an object (rule id → trimmed reason), or `undefined` when it has none. */
function objectSuppressions(annotations: { readonly [key: string]: unknown }): Map<string, string> | undefined {
  let out: Map<string, string> | undefined;
  for (const s of readSuppressions(annotations)) {
    const rule = findRule(s.ruleId);
    if (rule && rule.suppressible && isValidReason(s.reason)) (out ??= new Map()).set(s.ruleId, ownString(s.reason.trim()));
  }
  return out;
}

/**
 * The report of `findings` over `objects`, with its counts (unsuppressed errors, warnings and info; suppressed).
 * Also used to merge the reports of several checks back into one (lint of a fleet's cluster folders).
 */
export function policyReport(findings: Finding[], objects: CheckedObject[], checkedObjects: number, skippedObjects: number): PolicyReport {
  let errorCount = 0;
  let warningCount = 0;
  let infoCount = 0;
  let suppressedCount = 0;
  for (const f of findings) {
    if (f.suppressed) suppressedCount++;
    else if (f.severity === Severity.ERROR) errorCount++;
    else if (f.severity === Severity.WARNING) warningCount++;
    else infoCount++;
  }
  return { findings, checkedObjects, skippedObjects, errorCount, warningCount, infoCount, suppressedCount, objects };
}

/** Deeper than any Kubernetes object; bounds the walk on cyclic input. */
const MAX_FINGERPRINT_DEPTH = 100;

/**
 * Whether `value` is plain JSON data that `JSON.stringify` writes out exactly: strings, booleans, `null`, finite
 * numbers other than `-0`, dense arrays, and objects whose prototype is `Object.prototype` with only enumerable own
 * string-keyed properties. Anything else (`undefined`, `NaN`, `-0`, holes, functions, symbols, bigints, class
 * instances, objects without prototype, non-enumerable properties, cycles) has no exact JSON text.
 */
function isExactJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth > MAX_FINGERPRINT_DEPTH) return false;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        // a hole reads as undefined, which has no JSON text either
        for (let i = 0; i < value.length; i++) {
          if (!isExactJson(value[i], depth + 1)) return false;
        }
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      const keys = Object.keys(value);
      if (Object.getOwnPropertyNames(value).length !== keys.length) return false;
      for (let i = 0; i < keys.length; i++) {
        if (!isExactJson((value as Record<string, unknown>)[keys[i]], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * An exact fingerprint of what {@link checkManifests} reads: the manifests and the configuration, as JSON text. For
 * plain JSON data the text determines the value (keys in order, every string and number), so two calls return the
 * same string only if the rules would see the same input, and the report of one may stand for the other. Returns
 * `undefined` for input that is not plain JSON data (see `isExactJson`); such input is always checked afresh.
 * Properties are read as the rules read them: a getter is taken to return the same value each time.
 *
 * @internal
 */
export function checkInputFingerprint(manifests: readonly unknown[], config: RuleConfig | undefined): string | undefined {
  try {
    const input = [config === undefined ? null : config, manifests];
    return isExactJson(input, 0) ? JSON.stringify(input) : undefined;
  } catch {
    // a property getter that threw: leave such input to a fresh check
    return undefined;
  }
}

function toInfo(rule: IPolicyRule): RuleInfo {
  const { id, severity, category, title, rationale, fix, example, suppressible, configurable, kindSeverities, linuxOnly } = rule;
  return { id, severity, category, title, rationale, fix, example, suppressible, configurable, kindSeverities, linuxOnly };
}

/** The rule catalogue as data. */
export class RuleCatalogue {
  /** Every rule, in documentation order. */
  public static all(): RuleInfo[] {
    return allRules().map(toInfo);
  }

  /** The rule with this id, or `undefined`. */
  public static find(id: string): RuleInfo | undefined {
    const rule = findRule(id);
    return rule ? toInfo(rule) : undefined;
  }

  private constructor() {}
}

/** The engine as a class, for languages that have no free functions (jsii). */
export class PolicyEngine {
  /**
   * Checks manifests against the rule catalogue; see {@link checkManifests}.
   *
   * @param manifests plain Kubernetes objects
   * @param config rule configuration
   */
  public static check(manifests: any[], config?: RuleConfig): PolicyReport {
    return checkManifests(manifests, config);
  }

  private constructor() {}
}
