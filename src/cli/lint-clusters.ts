/**
 * `lint` of a fleet's output: each folder that records a cluster's Kubernetes version (a Fleet's
 * `clusters/<name>/kubernetes-version`) is checked as one cluster, at that version and with cross-object rules
 * (Namespace, RBAC) only among its own objects; every other object is checked together, at the configured version,
 * as before. The reports are merged back into input order, so the formats print one report.
 */

import * as path from 'path';
import { KubernetesVersion } from '../k8s/api-fields/versions';
import { clusterVersion } from '../manifests/cluster-version';
import type { SourcedObject } from '../manifests';
import type { RuleConfig } from '../policy/config';
import { CheckedObject, Finding, PolicyReport, policyReport } from '../policy/engine';

/** A folder's version file that does not hold a supported version (reported as unreadable input, exit 2). */
export interface ClusterVersionProblem {
  readonly file: string;
  readonly message: string;
}

/**
 * Checks `objects` per cluster folder (see the file comment) with `check` (the policy engine); `atVersion` gives the
 * configuration at a cluster's version.
 */
export function checkPerCluster(
  objects: readonly SourcedObject[],
  config: RuleConfig | undefined,
  check: (manifests: unknown[], config: RuleConfig | undefined) => PolicyReport,
  atVersion: (config: RuleConfig | undefined, version: KubernetesVersion) => RuleConfig,
): { report: PolicyReport; problems: ClusterVersionProblem[] } {
  const problems: ClusterVersionProblem[] = [];
  const folders = new Map<string, KubernetesVersion | undefined>();
  const clusterOf = (file: string): { folder: string; version: KubernetesVersion } | undefined => {
    if (file === '-' || file === '') return undefined;
    const folder = path.dirname(file);
    if (!folders.has(folder)) {
      const recorded = clusterVersion(folder);
      if (recorded?.error !== undefined) problems.push({ file: recorded.file, message: recorded.error });
      folders.set(folder, recorded?.version);
    }
    const version = folders.get(folder);
    return version === undefined ? undefined : { folder, version };
  };
  const groups = new Map<string, { version?: KubernetesVersion; indices: number[] }>();
  objects.forEach((o, i) => {
    const cluster = clusterOf(o.file);
    const key = cluster ? `cluster ${cluster.folder}` : '';
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { version: cluster?.version, indices: [] }));
    group.indices.push(i);
  });
  if (!groups.size || (groups.size === 1 && groups.has(''))) {
    return {
      report: check(
        objects.map((o) => o.object),
        config,
      ),
      problems,
    };
  }
  const findings: Finding[] = [];
  const checked: CheckedObject[] = [];
  let checkedObjects = 0;
  let skippedObjects = 0;
  for (const group of groups.values()) {
    const r = check(
      group.indices.map((i) => objects[i].object),
      group.version === undefined ? config : atVersion(config, group.version),
    );
    for (const f of r.findings) findings.push({ ...f, objectIndex: group.indices[f.objectIndex] });
    for (const c of r.objects) checked.push({ ...c, objectIndex: group.indices[c.objectIndex] });
    checkedObjects += r.checkedObjects;
    skippedObjects += r.skippedObjects;
  }
  // Object order, then each object's own (catalogue) order: the sort is stable.
  findings.sort((a, b) => a.objectIndex - b.objectIndex);
  checked.sort((a, b) => a.objectIndex - b.objectIndex);
  return { report: policyReport(findings, checked, checkedObjects, skippedObjects), problems };
}
