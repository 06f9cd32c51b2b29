/**
 * A cdk8s CLI validation plugin that runs the node-services rule catalogue over the synthesized manifests of any
 * cdk8s app (`cdk8s.yaml` → `validations:`). Imports neither cdk8s nor cdk8s-plus.
 *
 * ```yaml
 * validations:
 *   - package: cdk8s-node-services
 *     version: 0.1.0
 *     class: NodeServiceValidation
 *     properties:
 *       imageRegistries: [registry.example.com/]
 *       rules: {liveness-probe-missing: off}
 * ```
 */

import * as fs from 'fs';
import type { ReadProblem, SourcedObject } from '../manifests';
import { InputError } from '../manifests/input-error';
import { mergeConfigs, RuleConfig, ruleConfigFromValue } from './config';
import { checkManifests, Finding } from './engine';
import { Severity } from './types';

type Readers = typeof import('../manifests') & typeof import('../manifests/contract');
let loaded: Readers | undefined;
/** The manifest readers, loaded when the plugin first reads (requiring the library loads none of them). */
function readers(): Readers {
  loaded ??= {
    ...(require('../manifests') as typeof import('../manifests')),
    ...(require('../manifests/contract') as typeof import('../manifests/contract')),
  };
  return loaded;
}

/** A resource that violates a rule, as the cdk8s CLI expects it. */
export interface ValidationViolatingResource {
  /** The resource's `metadata.name`. */
  readonly resourceName: string;
  /** JSON paths of the offending fields. */
  readonly locations: string[];
  /** The manifest file. */
  readonly manifestPath: string;
}

/** A rule violation, as the cdk8s CLI expects it. */
export interface ValidationViolation {
  /** The rule id. */
  readonly ruleName: string;
  /** What is wrong (severity, title and the finding messages). */
  readonly recommendation: string;
  /** How to fix it. */
  readonly fix: string;
  /** The offending resources. */
  readonly violatingResources: ValidationViolatingResource[];
}

/** The report object of the cdk8s CLI's validation context. */
export interface IValidationReport {
  /** Adds a violation. */
  addViolation(violation: ValidationViolation): void;
  /** Submits the report (mandatory, once). */
  submit(status: string, metadata?: { [key: string]: string }): void;
}

/** The part of the cdk8s CLI's validation context this plugin uses. */
export interface IValidationContext {
  /** Paths of the synthesized manifest files. */
  readonly manifests: string[];
  /** The report to fill. */
  readonly report: IValidationReport;
}

/** Properties of the plugin (the `properties:` of the `cdk8s.yaml` validation entry). */
export interface NodeServiceValidationProps extends RuleConfig {
  /**
   * A rule configuration file (YAML or JSON, the CLI's `--config` format), merged under `rules`/`imageRegistries`
   * (`kubernetesVersion` given here overrides the file's).
   *
   * @default - no file
   */
  readonly configFile?: string;
  /**
   * Whether warnings are reported as violations too (they never make the report fail).
   *
   * @default true
   */
  readonly reportWarnings?: boolean;
}

/**
 * The cdk8s CLI validation plugin: `new NodeServiceValidation(properties)` then `await validate(context)`. The
 * report fails when any unsuppressed error finding remains.
 */
export class NodeServiceValidation {
  private readonly config: RuleConfig;
  private readonly reportWarnings: boolean;

  /** @throws when the configuration (or the config file) is invalid */
  constructor(props: NodeServiceValidationProps = {}) {
    let fileConfig: RuleConfig = {};
    if (props.configFile) {
      const text = fs.readFileSync(props.configFile, 'utf8');
      const objects = readers().parseObjects(text, props.configFile);
      fileConfig = ruleConfigFromValue(objects.length === 0 ? {} : objects[0].object, props.configFile);
    }
    const own = ruleConfigFromValue(
      { rules: props.rules ?? {}, imageRegistries: props.imageRegistries ?? [], kubernetesVersion: props.kubernetesVersion },
      'properties',
    );
    this.config = mergeConfigs(fileConfig, own);
    this.reportWarnings = props.reportWarnings ?? true;
  }

  /**
   * Checks every manifest file of the context and submits the report. Input the CLI's `lint` refuses (a file that is
   * not YAML objects, Node objects, no DaemonSet at all) is refused here too, with an `InputError` naming it; an empty
   * file is a chart without objects (cdk8s writes one).
   */
  public async validate(context: IValidationContext): Promise<void> {
    const read: SourcedObject[] = [];
    const problems: ReadProblem[] = [];
    for (const file of context.manifests) {
      const text = readers().readFileText(file);
      if (text.problem !== undefined) problems.push(text.problem);
      const parsed = text.text !== undefined ? readers().parseManifests(text.text, file) : { objects: [], problems: [] };
      for (const o of parsed.objects) read.push(o);
      for (const p of parsed.problems) problems.push(p);
    }
    for (const p of readers().nodeObjectProblems(read, undefined)) problems.push(p);
    if (problems.length > 0) throw readers().inputErrorOf(problems);
    const objects = read.map((o) => o.object);
    const files = read.map((o) => o.file);
    const report = checkManifests(objects, this.config);
    if (report.checkedObjects === 0) {
      throw new InputError(
        `nothing to check: no DaemonSet in the ${context.manifests.length} synthesized manifest files (${readers().kindsOf(objects)}); ` +
          'the node-services validation gives no verdict over none (remove it from cdk8s.yaml for an app without node services)',
      );
    }
    const byRule = new Map<string, { severity: Severity; findings: Finding[] }>();
    for (const f of report.findings) {
      if (f.suppressed || f.severity === Severity.INFO) continue;
      if (f.severity === Severity.WARNING && !this.reportWarnings) continue;
      const entry = byRule.get(f.ruleId);
      if (entry) {
        entry.findings.push(f);
        if (f.severity === Severity.ERROR) entry.severity = Severity.ERROR;
      } else {
        byRule.set(f.ruleId, { severity: f.severity, findings: [f] });
      }
    }
    for (const [ruleId, { severity, findings }] of byRule) {
      const resources = new Map<string, { resourceName: string; locations: string[]; manifestPath: string }>();
      for (const f of findings) {
        const key = `${f.objectIndex}`;
        const r = resources.get(key) ?? { resourceName: f.object.name, locations: [], manifestPath: files[f.objectIndex] };
        r.locations.push(f.path);
        resources.set(key, r);
      }
      const messages = [...new Set(findings.map((f) => f.message))];
      context.report.addViolation({
        ruleName: ruleId,
        recommendation: `[${severity}] ${findings[0].title}: ${messages.join('; ')}`,
        fix: findings[0].fix,
        violatingResources: [...resources.values()],
      });
    }
    context.report.submit(report.errorCount > 0 ? 'failure' : 'success', {
      daemonsets: String(report.checkedObjects),
      errors: String(report.errorCount),
      warnings: String(report.warningCount),
      suppressed: String(report.suppressedCount),
    });
  }
}

/**
 * Properties of {@link NodeServicesValidation}.
 *
 * @deprecated Renamed `NodeServiceValidationProps` (the singular, as in `NodeServiceChecks`); this name is removed in
 * the next release.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- jsii has no type aliases: the old name is an interface
export interface NodeServicesValidationProps extends NodeServiceValidationProps {}

/**
 * The cdk8s CLI validation plugin (`class: NodeServicesValidation` in `cdk8s.yaml`).
 *
 * @deprecated Renamed `NodeServiceValidation` (the singular, as in `NodeServiceChecks`); this name is removed in the
 * next release.
 */
export class NodeServicesValidation extends NodeServiceValidation {
  /** @throws when the configuration (or the config file) is invalid */
  constructor(props: NodeServicesValidationProps = {}) {
    super(props);
  }
}
