/**
 * The GitOps hand-off of a {@link Fleet}: the objects that make the GitOps engine the team already runs apply each
 * cluster's folder, wave by wave — an Argo CD `ApplicationSet` with progressive sync (`RollingSync`) steps, or Flux
 * `Kustomization`s ordered with `dependsOn` and gated on the health of the node services' DaemonSets.
 */

import { ApiObject, App, Chart } from 'cdk8s';
import { ProblemCollector } from '../k8s/problems';
import { FLEET_CLUSTER_LABEL, FLEET_WAVE_LABEL, MANAGED_BY } from '../k8s/vocabulary';
import { bool, checkArguments, checkShape, int, json, opt, req, ShapeTable, str } from '../k8s/shape';
import { dns1123LabelError } from '../k8s';

/** Options of {@link GitOps.argoCd}. */
export interface ArgoCdOptions {
  /** The Git repository the fleet's output is committed to (Argo CD `source.repoURL`). */
  readonly repoUrl: string;
  /**
   * The folder of the repository that holds the fleet's output (the fleet's outdir, e.g. `dist`): each Application's
   * `source.path` is `<repoPath>/clusters/<name>`. A relative path without `.` or `..` elements.
   * @default the repository root
   */
  readonly repoPath?: string;
  /**
   * The revision to apply (`source.targetRevision`): a branch, tag or commit.
   * @default `HEAD`
   */
  readonly targetRevision?: string;
  /**
   * The Argo CD project of the Applications.
   * @default `default`
   */
  readonly project?: string;
  /**
   * Name of the ApplicationSet and prefix of the Application names (`<name>-<cluster>`); a DNS-1123 label. An
   * Application's name becomes a label value on what it applies, so `<name>-<cluster>` must fit 63 characters.
   * @default `node-services`
   */
  readonly name?: string;
  /**
   * Namespace of the ApplicationSet (where Argo CD runs).
   * @default `argocd`
   */
  readonly namespace?: string;
  /**
   * How many clusters of a wave Argo CD syncs at once (`maxUpdate` of every step; a whole number ≥ 1).
   * @default every cluster of the wave at once
   */
  readonly maxUpdate?: number;
}

/** Options of {@link GitOps.flux}. */
export interface FluxOptions {
  /** The Flux `GitRepository` the fleet's output is committed to (`sourceRef.name`). */
  readonly sourceName: string;
  /**
   * Namespace of the `GitRepository`.
   * @default the Kustomizations' namespace
   */
  readonly sourceNamespace?: string;
  /**
   * The folder of the repository that holds the fleet's output (the fleet's outdir, e.g. `dist`): each
   * Kustomization's `path` is `./<repoPath>/clusters/<name>`. A relative path without `.` or `..` elements.
   * @default the repository root
   */
  readonly repoPath?: string;
  /**
   * Prefix of the Kustomization names (`<name>-<cluster>`); a DNS-1123 label.
   * @default `node-services`
   */
  readonly name?: string;
  /**
   * Namespace of the Kustomizations (where Flux runs).
   * @default `flux-system`
   */
  readonly namespace?: string;
  /**
   * How often Flux reconciles each cluster (a Go duration such as `10m` or `1h30m`).
   * @default `10m`
   */
  readonly interval?: string;
  /**
   * How long Flux waits for a cluster's health checks before the reconciliation fails (a Go duration).
   * @default `5m`
   */
  readonly timeout?: string;
  /**
   * Whether Flux deletes objects removed from a cluster's folder.
   * @default true
   */
  readonly prune?: boolean;
  /**
   * Wait for every object applied to be ready (`wait: true`) instead of health-checking only the cluster's
   * DaemonSets (`healthChecks`).
   * @default false (health checks on the cluster's DaemonSets)
   */
  readonly wait?: boolean;
}

/** What the GitOps objects need of one cluster. @internal */
export interface GitOpsCluster {
  readonly name: string;
  readonly wave: number;
  readonly labels: { readonly [key: string]: string };
  readonly server?: string;
  readonly kubeConfigSecret?: string;
  readonly daemonSets: ReadonlyArray<{ readonly name: string; readonly namespace: string }>;
}

const ARGO_SHAPE: ShapeTable = {
  repoUrl: req(str),
  repoPath: opt(str),
  targetRevision: opt(str),
  project: opt(str),
  name: opt(str),
  namespace: opt(str),
  maxUpdate: opt(int),
};

const FLUX_SHAPE: ShapeTable = {
  sourceName: req(str),
  sourceNamespace: opt(str),
  repoPath: opt(str),
  name: opt(str),
  namespace: opt(str),
  interval: opt(str),
  timeout: opt(str),
  prune: opt(bool),
  wait: opt(bool),
};

/** A Go duration as Flux's CRDs accept it. */
const DURATION = /^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/;

/** Why `value` is not a repository folder (relative, no `.`/`..`/empty elements, no whitespace), or `undefined`. */
function repoPathError(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.startsWith('/')) return 'must be relative to the repository root';
  if (/\s|\\/.test(value)) return 'must not contain whitespace or backslashes';
  if (value.split('/').some((e) => e === '' || e === '.' || e === '..')) return "must not have empty, '.' or '..' elements";
  return undefined;
}

function checkCommon(
  o: { readonly repoPath?: string; readonly name?: string; readonly namespace?: string },
  problems: ProblemCollector,
): void {
  if (o.repoPath !== undefined)
    problems.check('repoPath', o.repoPath, repoPathError(o.repoPath), 'use the folder the fleet is written to, e.g. "dist"');
  if (o.name !== undefined) problems.check('name', o.name, dns1123LabelError(o.name), 'use a DNS-1123 label such as "node-services"');
  if (o.namespace !== undefined) problems.check('namespace', o.namespace, dns1123LabelError(o.namespace), 'use a namespace name');
}

function clusterPath(repoPath: string, cluster: string): string {
  return repoPath === '' ? `clusters/${cluster}` : `${repoPath}/clusters/${cluster}`;
}

const MANAGED_LABELS = { 'app.kubernetes.io/managed-by': MANAGED_BY, 'app.kubernetes.io/part-of': 'node-services' };

/** The GitOps engine that rolls a fleet out. Create with {@link GitOps.argoCd} or {@link GitOps.flux}. */
export class GitOps {
  /** The label on each generated Application and Kustomization that carries its cluster's rollout wave. */
  public static readonly WAVE_LABEL: string = FLEET_WAVE_LABEL;
  /** The label on each generated Application and Kustomization that carries its cluster's name. */
  public static readonly CLUSTER_LABEL: string = FLEET_CLUSTER_LABEL;

  /**
   * An Argo CD `ApplicationSet` (`argoproj.io/v1alpha1`): a list generator with one element per cluster, one
   * Application per cluster applying `<repoPath>/clusters/<name>`, and a `RollingSync` strategy with one step per
   * wave (the template labels each Application with its wave). Progressive syncs must be enabled on the ApplicationSet
   * controller (`applicationsetcontroller.enable.progressive.syncs: "true"` in `argocd-cmd-params-cm`).
   * @throws NodeServiceError listing every problem of `options`
   */
  public static argoCd(options: ArgoCdOptions): GitOps {
    checkArguments('GitOps.argoCd', arguments, [['options', opt(json)]]);
    const problems = new ProblemCollector();
    const o = checkShape<ArgoCdOptions>(options, ARGO_SHAPE, problems, 'GitOps.argoCd');
    if (o.repoUrl !== undefined && (o.repoUrl.trim() === '' || /\s/.test(o.repoUrl))) {
      problems.add(
        'repoUrl',
        o.repoUrl,
        'is not a repository URL',
        'use the URL Argo CD clones, e.g. "https://github.com/example/platform.git"',
      );
    }
    checkCommon(o, problems);
    if (o.targetRevision !== undefined && (o.targetRevision === '' || /\s/.test(o.targetRevision))) {
      problems.add('targetRevision', o.targetRevision, 'is not a revision', 'use a branch, tag or commit, e.g. "main"');
    }
    if (o.project !== undefined)
      problems.check('project', o.project, dns1123LabelError(o.project), 'use an Argo CD project name such as "platform"');
    if (o.maxUpdate !== undefined && o.maxUpdate < 1) {
      problems.add(
        'maxUpdate',
        o.maxUpdate,
        'must be at least 1 (0 would keep the step from ever syncing)',
        'use 1 to sync one cluster of a wave at a time',
      );
    }
    problems.throwIfAny('GitOps.argoCd');
    return new GitOps('argo', o.name ?? 'node-services', o, undefined);
  }

  /**
   * One Flux `Kustomization` (`kustomize.toolkit.fluxcd.io/v1`) per cluster, applying `./<repoPath>/clusters/<name>`
   * from the `GitRepository` `sourceName`, health-checking the cluster's DaemonSets, depending on every Kustomization
   * of the previous wave, and applying to the remote cluster of `kubeConfigSecret` when the cluster names one.
   * @throws NodeServiceError listing every problem of `options`
   */
  public static flux(options: FluxOptions): GitOps {
    checkArguments('GitOps.flux', arguments, [['options', opt(json)]]);
    const problems = new ProblemCollector();
    const o = checkShape<FluxOptions>(options, FLUX_SHAPE, problems, 'GitOps.flux');
    if (o.sourceName !== undefined)
      problems.check('sourceName', o.sourceName, dns1123LabelError(o.sourceName), 'use the name of the GitRepository, e.g. "platform"');
    if (o.sourceNamespace !== undefined)
      problems.check('sourceNamespace', o.sourceNamespace, dns1123LabelError(o.sourceNamespace), 'use a namespace name');
    checkCommon(o, problems);
    for (const field of ['interval', 'timeout'] as const) {
      const v = o[field];
      if (v !== undefined && !DURATION.test(v)) problems.add(field, v, 'is not a duration', 'use a Go duration such as "10m" or "1h30m"');
    }
    problems.throwIfAny('GitOps.flux');
    return new GitOps('flux', o.name ?? 'node-services', undefined, o);
  }

  /** The prefix of the generated object names (`<name>-<cluster>`). */
  public readonly name: string;

  private constructor(
    private readonly engine: 'argo' | 'flux',
    name: string,
    private readonly argo: ArgoCdOptions | undefined,
    private readonly fluxOptions: FluxOptions | undefined,
  ) {
    this.name = name;
  }

  /**
   * Why a cluster cannot join a fleet rolled out by this engine (with the clusters already in it), or `undefined`.
   * @internal
   */
  public _clusterProblem(
    cluster: { readonly name: string; readonly server?: string },
    others: ReadonlyArray<{ readonly server?: string }>,
  ): { field: string; value: unknown; problem: string; fix: string } | undefined {
    const objectName = `${this.name}-${cluster.name}`;
    if (objectName.length > 63) {
      return {
        field: 'name',
        value: cluster.name,
        problem: `makes the GitOps object name "${objectName}" longer than 63 characters (Argo CD and Flux put it in a label value)`,
        fix: 'shorten the cluster name or the GitOps name',
      };
    }
    if (this.engine === 'argo' && others.length > 0 && (others[0].server === undefined) !== (cluster.server === undefined)) {
      return {
        field: 'server',
        value: cluster.server,
        problem: `is ${cluster.server === undefined ? 'missing while other clusters give one' : 'given while other clusters give none'}: the ApplicationSet's template has one destination field for every cluster`,
        fix: 'give every cluster a server, or none (Argo CD then finds each cluster by its name)',
      };
    }
    return undefined;
  }

  /** Renders the GitOps objects of `clusters` into `app`. @internal */
  public _render(app: App, clusters: readonly GitOpsCluster[]): void {
    if (this.engine === 'argo') this.renderArgo(new Chart(app, 'argocd', { disableResourceNameHashes: true }), clusters);
    else this.renderFlux(new Chart(app, 'flux', { disableResourceNameHashes: true }), clusters);
  }

  private renderArgo(chart: Chart, clusters: readonly GitOpsCluster[]): void {
    const o = this.argo!;
    const byServer = clusters.some((c) => c.server !== undefined);
    const waves = [...new Set(clusters.map((c) => c.wave))].sort((a, b) => a - b);
    new ApiObject(chart, 'application-set', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: this.name, namespace: o.namespace ?? 'argocd', labels: { ...MANAGED_LABELS } },
      spec: {
        goTemplate: true,
        goTemplateOptions: ['missingkey=error'],
        generators: [
          {
            list: {
              elements: clusters.map((c) => ({
                cluster: c.name,
                wave: String(c.wave),
                path: clusterPath(o.repoPath ?? '', c.name),
                ...(byServer ? { server: c.server } : {}),
              })),
            },
          },
        ],
        strategy: {
          type: 'RollingSync',
          rollingSync: {
            steps: waves.map((w) => ({
              matchExpressions: [{ key: FLEET_WAVE_LABEL, operator: 'In', values: [String(w)] }],
              ...(o.maxUpdate !== undefined ? { maxUpdate: o.maxUpdate } : {}),
            })),
          },
        },
        template: {
          metadata: {
            name: `${this.name}-{{.cluster}}`,
            labels: { ...MANAGED_LABELS, [FLEET_CLUSTER_LABEL]: '{{.cluster}}', [FLEET_WAVE_LABEL]: '{{.wave}}' },
          },
          spec: {
            project: o.project ?? 'default',
            source: { repoURL: o.repoUrl, targetRevision: o.targetRevision ?? 'HEAD', path: '{{.path}}' },
            destination: byServer ? { server: '{{.server}}' } : { name: '{{.cluster}}' },
          },
        },
      },
    });
  }

  private renderFlux(chart: Chart, clusters: readonly GitOpsCluster[]): void {
    const o = this.fluxOptions!;
    const waves = [...new Set(clusters.map((c) => c.wave))].sort((a, b) => a - b);
    for (const c of clusters) {
      const index = waves.indexOf(c.wave);
      const previous = index > 0 ? clusters.filter((p) => p.wave === waves[index - 1]) : [];
      const healthChecks = [...c.daemonSets]
        .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))
        .map((d) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', name: d.name, namespace: d.namespace }));
      new ApiObject(chart, c.name, {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: {
          name: `${this.name}-${c.name}`,
          namespace: o.namespace ?? 'flux-system',
          labels: { ...c.labels, ...MANAGED_LABELS, [FLEET_CLUSTER_LABEL]: c.name, [FLEET_WAVE_LABEL]: String(c.wave) },
        },
        spec: {
          interval: o.interval ?? '10m',
          path: `./${clusterPath(o.repoPath ?? '', c.name)}`,
          prune: o.prune ?? true,
          sourceRef: {
            kind: 'GitRepository',
            name: o.sourceName,
            ...(o.sourceNamespace !== undefined ? { namespace: o.sourceNamespace } : {}),
          },
          timeout: o.timeout ?? '5m',
          ...(o.wait ? { wait: true } : healthChecks.length > 0 ? { healthChecks } : {}),
          ...(previous.length > 0 ? { dependsOn: previous.map((p) => ({ name: `${this.name}-${p.name}` })) } : {}),
          ...(c.kubeConfigSecret !== undefined ? { kubeConfig: { secretRef: { name: c.kubeConfigSecret } } } : {}),
        },
      });
    }
  }
}
