/**
 * The policy engine's public API: the rule catalogue, the engine, rule configuration, suppressions, synth-time
 * checks and the cdk8s CLI validation plugin. Rule implementations (`IPolicyRule`, `RULES`) stay internal: their
 * check functions take plain JSON and a context with function fields, which jsii cannot express; `RuleCatalogue`
 * exposes the rules as data. (The CLI imports the engine modules directly, never this barrel, because `synth`
 * loads cdk8s.)
 */

export { Severity, RuleCategory } from './types';
export { RuleLevel, RuleConfig, PolicyConfigError } from './config';
export { checkManifests, CheckedObject, Finding, ObjectRef, PolicyReport, PolicyEngine, RuleCatalogue } from './engine';
export { KindSeverity, RuleDocs, RuleInfo } from './types';
export { SUPPRESSION_ANNOTATION_PREFIX, suppressionAnnotationKey } from './suppression';
export { ON_DELETE_REASON_ANNOTATION } from './host-access';
export { NodeServiceChecks, NodeServiceChecksProps, Suppressions, IPolicyLogger, PolicyLoggers } from './synth';
export {
  NodeServiceValidation,
  NodeServiceValidationProps,
  NodeServicesValidation,
  NodeServicesValidationProps,
  IValidationContext,
  IValidationReport,
  ValidationViolation,
  ValidationViolatingResource,
} from './plugin';
