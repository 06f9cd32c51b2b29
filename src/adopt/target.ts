/**
 * The Kubernetes version an import targets: the lowest of the supported versions whose API has every field and every
 * kind of the input, or the version the caller asks for; and, either way, the input's fields that the target does not
 * have (each with its file, object, path and the version that has it), never dropped in silence. Pure: the generated
 * field tables of `k8s/api-fields`, no cdk8s.
 */

import { describeUnknownField, describeUnservedKind, kindServedFrom, unknownFields, UnknownField } from '../k8s/api-fields';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSION_RANGE, KUBERNETES_VERSIONS, KubernetesVersion } from '../k8s/api-fields/versions';
import { InputObject } from '../day2/objects';
import { describeObject } from './input';

/** A field (or the kind) of an input object that a Kubernetes version does not have. */
export interface VersionNeed {
  /** The input file. */
  readonly file: string;
  /** The object, as `Kind namespace/name`. */
  readonly object: string;
  /** The field's path (`spec.template.spec.securityContext.appArmorProfile`), or `apiVersion` for a kind not served. */
  readonly path: string;
  /** The lowest supported version that has it; absent when no supported version does (an unknown name). */
  readonly version?: KubernetesVersion;
  /** What is wrong, as the API server's strict decoding says it (`unknown field "…": … exists from Kubernetes 1.30; the target is 1.28`). */
  readonly message: string;
}

/** The version the generated app targets, and why. */
export interface TargetVersion {
  /** The version. */
  readonly version: KubernetesVersion;
  /** `inferred` (the lowest version that has every field of the input) or `option` (given by the caller). */
  readonly source: string;
  /** Why this version, in words. */
  readonly reason: string;
  /** The input's fields that the version below the inferred one does not have: what requires it (empty for 1.28). */
  readonly requiredBy: VersionNeed[];
  /** The input's fields the target does not have: each makes the import fail (the API server would refuse them). */
  readonly missing: VersionNeed[];
}

/** The supported version of a version text the field data names (`'1.30'`), if it is one. */
function supported(version: string | undefined): KubernetesVersion | undefined {
  return KUBERNETES_VERSIONS.find((v) => v === version);
}

/** The lowest supported version that has a field `version` does not, or undefined when none has it. */
function versionWith(field: UnknownField): KubernetesVersion | undefined {
  if (field.existsFrom !== undefined) return supported(field.existsFrom);
  if (field.existsIn !== undefined) return supported(field.existsIn);
  return field.removedAfter !== undefined ? KUBERNETES_VERSIONS[0] : undefined;
}

/** What `version` does not have of `objects`: kinds it does not serve and fields it does not have. */
function needsAt(objects: readonly InputObject[], version: KubernetesVersion): VersionNeed[] {
  const out: VersionNeed[] = [];
  for (const o of objects) {
    const where = { file: o.file ?? '-', object: describeObject(o.object) };
    const served = kindServedFrom(o.object, version);
    if (served !== undefined) {
      out.push({ ...where, path: 'apiVersion', version: supported(served), message: describeUnservedKind(o.object, served, version) });
      continue;
    }
    for (const f of unknownFields(o.object, { version })) {
      const has = versionWith(f);
      const none = has === undefined ? ` (no Kubernetes version from ${KUBERNETES_VERSION_RANGE} has it)` : '';
      out.push({ ...where, path: f.path, version: has, message: `${describeUnknownField(f, version)}${none}` });
    }
  }
  return out;
}

/** `spec.template.spec.securityContext.appArmorProfile of DaemonSet kube-system/cilium (file)`, for reasons and comments. */
export function describeNeed(need: VersionNeed): string {
  return `${need.path === 'apiVersion' ? 'the apiVersion' : need.path} of ${need.object} (${need.file})`;
}

/** The supported version that leaves the fewest fields some version has unmet; the lowest of equals. */
function lowestFitting(objects: readonly InputObject[]): { version: KubernetesVersion; below?: VersionNeed[] } {
  let best: { version: KubernetesVersion; open: number } | undefined;
  let previous: VersionNeed[] | undefined;
  let below: VersionNeed[] | undefined;
  for (const version of KUBERNETES_VERSIONS) {
    const needs = needsAt(objects, version);
    const open = needs.filter((n) => n.version !== undefined).length;
    if (best === undefined || open < best.open) {
      best = { version, open };
      below = previous;
    }
    if (open === 0) break;
    previous = needs;
  }
  return { version: best!.version, below };
}

/**
 * The target of an import of `objects` (server fields stripped): `requested` when given, else the lowest supported
 * version whose API has every field and kind of the input (when none has them all, the one that leaves the fewest).
 */
export function targetVersion(objects: readonly InputObject[], requested?: KubernetesVersion): TargetVersion {
  const inferred = lowestFitting(objects);
  const requiredBy = (inferred.below ?? []).filter((n) => n.version !== undefined);
  const version = requested ?? inferred.version;
  const missing = needsAt(objects, version);
  const why = requiredBy.length > 0 ? `, for ${requiredBy.map(describeNeed).join('; ')}` : '';
  if (requested !== undefined) {
    const needed =
      inferred.version !== requested ? `; the lowest version whose API has every field of the input is ${inferred.version}${why}` : '';
    return { version, source: 'option', reason: `Kubernetes ${version}, as asked for${needed}`, requiredBy, missing };
  }
  // A field no version has is reported (in `missing`) whatever the target; the target fits every other field.
  const fields = missing.length > 0 ? 'every field of the input that some version has' : 'every field of the input';
  const reason =
    version === DEFAULT_KUBERNETES_VERSION
      ? `Kubernetes ${version}, the library's default: its API has ${fields}`
      : `Kubernetes ${version}, the lowest version whose API has ${fields}${why}`;
  return { version, source: 'inferred', reason, requiredBy, missing };
}

/** A problem line of the report for a field the target does not have. */
export function missingProblem(need: VersionNeed): string {
  const fix =
    need.version === undefined
      ? 'correct or remove the field in the input'
      : `target a version that has it (--kubernetes-version ${need.version}), or remove the field from the input`;
  return `${need.object} in ${need.file}: ${need.message}. Fix: ${fix}`;
}
