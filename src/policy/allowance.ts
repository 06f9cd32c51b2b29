/**
 * How a node-service kind's allowances act on findings, in one place for every rule (DESIGN decision 11). A declared
 * kind (the kind annotation, which the library's constructs write) gets its allowances: a finding the kind allows is
 * not reported, or lowered to the kind's severity. An inferred kind (from the manifest's shape) gets none silently:
 * an error it would be allowed is softened to a warning, nothing is hidden, nothing goes below a warning, and the
 * message says how to declare the kind. Only a kind inferred from an image or command (a CSI registrar sidecar, a known
 * CNI agent image) softens an error; one inferred from host paths leaves it an error, so that adding a mount never
 * makes a DaemonSet look safer. Without a kind (neither declared nor inferred) nothing is allowed.
 */

import { KIND_ANNOTATION, KindSource, NodeServiceKind } from './kinds';
import type { IPolicyRule, RuleFinding } from './types';
import { Severity } from './types';

/** Severities by weight. */
function severityRank(s: Severity): number {
  return s === Severity.ERROR ? 2 : s === Severity.WARNING ? 1 : 0;
}

/** Where an object's kind comes from, as the allowances see it. */
export interface KindOrigin {
  /** Declared, inferred or none. */
  readonly source: KindSource;
  /** Whether an inferred kind comes from an image or command rather than from host paths. */
  readonly byImage: boolean;
}

/**
 * The severity an inferred kind keeps where the declared kind would not be reported or be lowered: the rule's own,
 * except an error softened to a warning when the kind is inferred from an image or command. Never below a warning
 * (an info rule stays info).
 */
function inferredSeverity(severity: Severity, origin: KindOrigin): Severity {
  return origin.byImage && severity === Severity.ERROR ? Severity.WARNING : severity;
}

/** A rule's severity for the objects of one kind. */
export interface RuleSeverityForKind {
  /** The severity; `undefined` when the rule does not run for the kind (only ever for a declared kind). */
  readonly severity: Severity | undefined;
  /** Whether it is above what the declared kind would get (an inferred kind): findings then say how to declare it. */
  readonly softened: boolean;
}

/**
 * The severity of `rule` for objects of `kind` from `source`: `base` (the configured level or the rule's default)
 * when the configuration sets the level or no per-kind entry names the kind; else the entry's, which raises or
 * lowers it for a declared kind, only raises it for an inferred one (unless the entry is for declared kinds only),
 * and lowers it for an inferred kind no further than {@link inferredSeverity}.
 */
export function ruleSeverityForKind(
  rule: IPolicyRule,
  base: Severity,
  configured: boolean,
  kind: NodeServiceKind,
  origin: KindOrigin,
): RuleSeverityForKind {
  const declared = origin.source === KindSource.ANNOTATION;
  if (configured || origin.source === KindSource.DEFAULT) return { severity: base, softened: false };
  const entry = (rule.kindSeverities ?? []).find((k) => k.kinds.includes(kind) && (declared || !k.declaredOnly));
  if (!entry) return { severity: base, softened: false };
  const lowers = entry.severity === undefined || severityRank(entry.severity) < severityRank(base);
  if (declared || !lowers) return { severity: entry.severity, softened: false };
  const severity = inferredSeverity(base, origin);
  return { severity, softened: entry.severity === undefined || severityRank(entry.severity) < severityRank(severity) };
}

/** What becomes of one finding of a rule: its severity, and whether its message must say how to declare the kind. */
export interface FindingOutcome {
  /** The severity. */
  readonly severity: Severity;
  /** Whether the declared kind would be allowed it (the kind is inferred): the message then says how to declare it. */
  readonly declareHint: boolean;
}

/**
 * The outcome of finding `r` of a rule that runs at `severity` for the object's kind (`softened` from
 * {@link ruleSeverityForKind}); `undefined` when the declared kind allows it outright.
 */
export function findingOutcome(
  r: RuleFinding,
  severity: Severity,
  configured: boolean,
  softened: boolean,
  origin: KindOrigin,
): FindingOutcome | undefined {
  const source = origin.source;
  const own = !configured && r.severity !== undefined && severityRank(r.severity) < severityRank(severity) ? r.severity : severity;
  if (r.allowedByKind !== true || source === KindSource.DEFAULT) return { severity: own, declareHint: softened };
  if (source === KindSource.ANNOTATION) {
    if (r.allowedSeverity === undefined) return undefined;
    return { severity: severityRank(r.allowedSeverity) < severityRank(own) ? r.allowedSeverity : own, declareHint: false };
  }
  if (r.allowedSeverity !== undefined && severityRank(r.allowedSeverity) >= severityRank(own)) {
    return { severity: own, declareHint: softened };
  }
  return { severity: configured ? own : inferredSeverity(own, origin), declareHint: true };
}

/** The sentence added to a finding the declared kind would be allowed: how to declare the kind. */
export function declareKindHint(kind: NodeServiceKind): string {
  return `; a declared ${kind} is allowed this, an inferred one is not: if this is a ${kind}, declare it with the annotation ${KIND_ANNOTATION}: ${kind}`;
}
