/**
 * The checks of one `lint` run, fed one object at a time as the input is read (no object is kept once checked).
 * Without --kubernetes-version, each folder that records a cluster's Kubernetes version (a Fleet's
 * `clusters/<name>/kubernetes-version`) is checked as one cluster, at that version and with cross-object rules
 * (Namespace, RBAC) only among its own objects; every other object is checked together, at the configured version.
 * The objects the cross-object rules look up are read ahead, into each check's index, before any object is checked.
 * The reports are merged back into input order, so the formats print one report.
 */

import * as path from 'path';
import { KubernetesVersion } from '../k8s/api-fields/versions';
import { ClusterVersion, clusterVersion } from '../manifests/cluster-version';
import type { SourcedObject } from '../manifests';
import type { RuleConfig } from '../policy/config';
import { CheckRun, Finding, PolicyReport, policyReport } from '../policy/engine';
import { InputIndex } from '../policy/rbac';

/** A folder's version file that does not hold a supported version (reported as unreadable input, exit 2). */
export interface ClusterVersionProblem {
  readonly file: string;
  readonly message: string;
}

/** One check of the run: a cluster folder's objects, or all the others; its run starts at its first object. */
interface Check {
  readonly config: RuleConfig | undefined;
  readonly index: InputIndex;
  run?: CheckRun;
}

/** The checks of one lint run, per cluster folder (see the file comment). */
export class ClusterChecks {
  /** The recorded version of each folder seen, by folder. */
  private readonly versions = new Map<string, ClusterVersion | undefined>();
  /** The folders whose version problem (if any) was reported: in the order their first object is checked. */
  private readonly reported = new Set<string>();
  private readonly checks = new Map<string, Check>();
  private readonly problems: ClusterVersionProblem[] = [];
  /** The last file's check and folder (the objects of a file come one after the other). */
  private last: { file: string; check: Check; folder: string | undefined } | undefined;

  /**
   * `atVersion` gives the configuration at a cluster's version; without it (a version given on the command line),
   * every object is checked together at `config`.
   */
  constructor(
    private readonly config: RuleConfig | undefined,
    private readonly atVersion: ((config: RuleConfig | undefined, version: KubernetesVersion) => RuleConfig) | undefined,
  ) {}

  /** Adds an object the cross-object rules may look up to the index of its check; whether the index kept it. */
  public ahead(object: SourcedObject): boolean {
    return this.checkOf(object.file).index.add(object.object);
  }

  /** Checks an object, the `objectIndex`-th of the input. */
  public check(object: SourcedObject, objectIndex: number): void {
    if (this.last?.file !== object.file)
      this.last = { file: object.file, check: this.checkOf(object.file), folder: this.folderOf(object.file) };
    const { check, folder } = this.last;
    if (folder !== undefined && !this.reported.has(folder)) {
      this.reported.add(folder);
      const recorded = this.versions.get(folder);
      if (recorded?.error !== undefined) this.problems.push({ file: recorded.file, message: recorded.error });
    }
    check.run ??= new CheckRun(check.config, check.index);
    check.run.check(object.object, objectIndex);
  }

  /** The report of every check, in input order (then each object's catalogue order), and the version problems. */
  public report(): { report: PolicyReport; problems: ClusterVersionProblem[] } {
    const reports = [...this.checks.values()].map((c) => c.run?.report()).filter((r): r is PolicyReport => r !== undefined);
    if (reports.length === 1) return { report: reports[0], problems: this.problems };
    const findings: Finding[] = [];
    const checked: PolicyReport['objects'] = [];
    let checkedObjects = 0;
    let skippedObjects = 0;
    for (const r of reports) {
      for (const f of r.findings) findings.push(f);
      for (const c of r.objects) checked.push(c);
      checkedObjects += r.checkedObjects;
      skippedObjects += r.skippedObjects;
    }
    // Object order, then each object's own (catalogue) order: the sort is stable.
    findings.sort((a, b) => a.objectIndex - b.objectIndex);
    checked.sort((a, b) => a.objectIndex - b.objectIndex);
    return { report: policyReport(findings, checked, checkedObjects, skippedObjects), problems: this.problems };
  }

  /** The folder of a file read from disk, with its recorded version read once; `undefined` for stdin or with a version flag. */
  private folderOf(file: string): string | undefined {
    if (this.atVersion === undefined || file === '-' || file === '') return undefined;
    const folder = path.dirname(file);
    if (!this.versions.has(folder)) this.versions.set(folder, clusterVersion(folder));
    return folder;
  }

  /** The check of a file's objects: its cluster folder's, or the one of every other object. */
  private checkOf(file: string): Check {
    const folder = this.folderOf(file);
    const version = folder === undefined ? undefined : this.versions.get(folder)?.version;
    const key = version === undefined ? '' : `cluster ${folder}`;
    let check = this.checks.get(key);
    if (check === undefined) {
      const config = version === undefined || this.atVersion === undefined ? this.config : this.atVersion(this.config, version);
      this.checks.set(key, (check = { config, index: new InputIndex() }));
    }
    return check;
  }
}
