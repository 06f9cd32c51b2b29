/**
 * A fleet of clusters synthesized by one program: each cluster is its own cdk8s `App` (its own output folder, its own
 * policy checks for its Kubernetes version, coverage targets and node tax of its pools), node services are declared
 * once and built per cluster from the cluster's facts, and the GitOps objects that roll the folders out wave by wave
 * are generated beside them.
 */

import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { NodeServiceError, ProblemCollector, show } from '../k8s/problems';
import { NodePool } from '../core/node-pool';
import { poolShape } from '../core/props';
import { checkLabels } from '../core/intent/maps';
import { checkArguments, checkShape, instance, int, json, list, map, opt, req, ShapeTable, str } from '../k8s/shape';
import { dns1123LabelError } from '../k8s';
import { KubernetesVersion, kubernetesVersionError } from '../k8s/api-fields/versions';
import { CLUSTER_VERSION_FILE } from '../manifests/cluster-version';
import { IPolicyLogger, NodeServiceChecks, PolicyLoggers } from '../policy/synth';
import { GitOps, GitOpsCluster } from './gitops';

const FLEET_CLUSTERS_FOLDER = 'clusters';
const FLEET_GITOPS_FOLDER = 'gitops';

/** Options of one cluster of a {@link Fleet}. */
export interface FleetClusterOptions {
  /** The cluster's name: a DNS-1123 label, unique in the fleet. Names its output folder `clusters/<name>/`. */
  readonly name: string;
  /**
   * The Kubernetes version the cluster runs (1.28 or later). The cluster's objects follow it (the
   * ValidatingAdmissionPolicy API version, the Pod Security version labels, …) and its policy checks use it.
   */
  readonly kubernetesVersion: KubernetesVersion;
  /** The cluster's node pools (at least one; unique names): what its node services cover, verified at synth. */
  readonly pools: NodePool[];
  /**
   * Labels of the cluster (e.g. `{ region: 'eu-west-1', environment: 'production' }`): select the clusters a service
   * definition applies to ({@link FleetServicesOptions.matchLabels}) and label the cluster's Flux Kustomization.
   * Keys and values follow the Kubernetes label grammar.
   * @default none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Rollout wave: a whole number ≥ 0; the GitOps engine rolls lower waves out first and starts a wave when the
   * previous one is healthy.
   * @default 0
   */
  readonly wave?: number;
  /**
   * The cluster's API server URL as Argo CD knows it (Argo CD `destination.server`), e.g.
   * `https://kubernetes.default.svc` for the cluster Argo CD runs in.
   * @default Argo CD's destination is the cluster registered under this cluster's `name` (`destination.name`)
   */
  readonly server?: string;
  /**
   * The Secret (in the Flux Kustomizations' namespace) holding the kubeconfig of this remote cluster, for Flux
   * (`kubeConfig.secretRef.name`; key `value` or `value.yaml`).
   * @default Flux applies to the cluster it runs in
   */
  readonly kubeConfigSecret?: string;
}

/** Which clusters a service definition applies to. */
export interface FleetServicesOptions {
  /**
   * Labels a cluster must carry (every one, with the value given) for the definition to run for it.
   * @default every cluster
   */
  readonly matchLabels?: { [key: string]: string };
}

/**
 * Node services declared once for a fleet: {@link define} runs once per cluster (added with
 * {@link Fleet.addServices}) and builds the services of that cluster, computing images, resources, pools and canaries
 * from the cluster it is given. TypeScript users pass an object literal (`{ define: (scope, cluster) => … }`).
 */
export interface IFleetServices {
  /**
   * Builds the services of one cluster into `scope` (the cluster's `App`: create charts in it, or use
   * {@link FleetCluster.chart}).
   */
  define(scope: Construct, cluster: FleetCluster): void;
}

/** Props of a {@link Fleet}. */
export interface FleetProps {
  /**
   * Where the fleet is written: `<outdir>/clusters/<name>/` per cluster, `<outdir>/gitops/` for the GitOps objects.
   * @default `process.env.CDK8S_OUTDIR` (set by `cdk8s synth`), else `dist`
   */
  readonly outdir?: string;
  /** The clusters (more can be added with {@link Fleet.addCluster}). @default none */
  readonly clusters?: FleetClusterOptions[];
  /**
   * The GitOps objects that roll the clusters' folders out wave by wave: `GitOps.argoCd({...})` or `GitOps.flux({...})`.
   * @default no GitOps objects
   */
  readonly gitops?: GitOps;
  /**
   * Where each cluster's synth-time warning summary goes, prefixed with `cluster '<name>': `.
   * @default PolicyLoggers.stderr()
   */
  readonly logger?: IPolicyLogger;
}

const CLUSTER_SHAPE: ShapeTable = {
  name: req(str),
  // Any type: the version grammar explains numbers (`1.30` unquoted) and malformed strings itself.
  kubernetesVersion: req(json),
  pools: req(list(poolShape)),
  labels: opt(map(str)),
  wave: opt(int),
  server: opt(str),
  kubeConfigSecret: opt(str),
};

const FLEET_SHAPE: ShapeTable = {
  outdir: opt(str),
  clusters: opt(list(json)),
  gitops: opt(instance(GitOps, 'GitOps.argoCd({ repoUrl }) or GitOps.flux({ sourceName })')),
  // An object with a log(message) method, checked below.
  logger: opt(json),
};

const SERVICES_OPTIONS_SHAPE: ShapeTable = {
  matchLabels: opt(map(str)),
};

/** One cluster of a {@link Fleet}: the handle service definitions build from. Created by {@link Fleet.addCluster}. */
export class FleetCluster {
  /** The cluster's name. */
  public readonly name: string;
  /** The Kubernetes version the cluster runs. */
  public readonly kubernetesVersion: KubernetesVersion;
  /** The cluster's node pools. */
  public readonly pools: NodePool[];
  /** The cluster's labels. */
  public readonly labels: { [key: string]: string };
  /** The rollout wave (lower first). */
  public readonly wave: number;
  /** The API server URL for Argo CD, if given. */
  public readonly server?: string;
  /** The kubeconfig Secret for Flux, if given. */
  public readonly kubeConfigSecret?: string;
  /** The cluster's own cdk8s App: its output folder, with the policy checks for its Kubernetes version. */
  public readonly app: App;
  /** The folder the cluster's manifests are written to (`<fleet outdir>/clusters/<name>`). */
  public readonly outdir: string;

  /** @internal */
  constructor(options: FleetClusterOptions, outdir: string, logger: IPolicyLogger) {
    this.name = options.name;
    this.kubernetesVersion = options.kubernetesVersion;
    this.pools = [...options.pools];
    this.labels = { ...(options.labels ?? {}) };
    this.wave = options.wave ?? 0;
    this.server = options.server;
    this.kubeConfigSecret = options.kubeConfigSecret;
    this.outdir = outdir;
    this.app = new App({ outdir });
    // Registered before any service is built, so that every construct of the cluster reads its version.
    const prefix = `cluster '${this.name}': `;
    NodeServiceChecks.of(this.app, {
      kubernetesVersion: this.kubernetesVersion,
      logger: { log: (message) => logger.log(`${prefix}${message}`) },
    });
  }

  /** Whether the cluster has a node pool called `name`. */
  public hasPool(name: string): boolean {
    checkArguments('FleetCluster.hasPool', arguments, [['name', req(str)]]);
    return this.pools.some((p) => p.name === name);
  }

  /**
   * The cluster's node pool called `name`.
   * @throws when the cluster has no such pool; the message names the cluster and its pools
   */
  public pool(name: string): NodePool {
    checkArguments('FleetCluster.pool', arguments, [['name', req(str)]]);
    const pool = this.pools.find((p) => p.name === name);
    if (pool === undefined) {
      throw new NodeServiceError(
        'FleetCluster.pool',
        [
          {
            field: 'FleetCluster.pool(name)',
            value: show(name),
            problem: `cluster '${this.name}' has no such node pool (its pools: ${this.pools.map((p) => p.name).join(', ')})`,
            fix: 'use one of them, or check cluster.hasPool(name) first',
          },
        ],
        'arguments',
      );
    }
    return pool;
  }

  /**
   * A new chart in the cluster's App (its manifests go to `clusters/<name>/`).
   * @param id the chart's id (names its file)
   * @param props the chart's props
   */
  public chart(id: string, props?: ChartProps): Chart {
    checkArguments('FleetCluster.chart', arguments, [
      ['id', req(str)],
      ['props', opt(json)],
    ]);
    return new Chart(this.app, id, props);
  }

  /** Whether the cluster carries every one of `labels`. */
  public matches(labels: { [key: string]: string }): boolean {
    checkArguments('FleetCluster.matches', arguments, [['labels', req(map(str))]]);
    return Object.entries(labels).every(([k, v]) => this.labels[k] === v);
  }
}

/**
 * A fleet of clusters synthesized by one program. Each cluster is its own cdk8s `App`, verified at synth like a
 * single-cluster app (policy rules for its Kubernetes version, coverage targets of its pools, node tax per pool),
 * and written to `<outdir>/clusters/<name>/`; the GitOps objects go to `<outdir>/gitops/`.
 */
export class Fleet {
  /** The folder below the fleet's outdir that holds one folder per cluster (`clusters`). */
  public static readonly CLUSTERS_FOLDER: string = FLEET_CLUSTERS_FOLDER;
  /** The folder below the fleet's outdir that holds the GitOps objects (`gitops`). */
  public static readonly GITOPS_FOLDER: string = FLEET_GITOPS_FOLDER;
  /**
   * The file in each cluster folder that holds the cluster's Kubernetes version (`kubernetes-version`, e.g. `1.30`):
   * `node-services coverage --clusters` reads it, so each cluster is analysed with its own version's semantics.
   */
  public static readonly VERSION_FILE: string = CLUSTER_VERSION_FILE;

  /** Where the fleet is written. */
  public readonly outdir: string;
  /** The GitOps hand-off, if any. */
  public readonly gitops?: GitOps;
  private readonly logger: IPolicyLogger;
  private readonly clusterList: FleetCluster[] = [];
  private readonly definitions: Array<{ readonly services: IFleetServices; readonly matchLabels: { [key: string]: string } }> = [];

  constructor(props: FleetProps = {}) {
    const problems = new ProblemCollector();
    const sound = checkShape<FleetProps>(props, FLEET_SHAPE, problems, 'Fleet');
    if (sound.outdir !== undefined && sound.outdir.trim() === '') {
      problems.add('outdir', sound.outdir, 'must not be empty', 'give a folder such as "dist", or leave it out');
    }
    if (
      sound.logger !== undefined &&
      (sound.logger === null || typeof sound.logger !== 'object' || typeof sound.logger.log !== 'function')
    ) {
      problems.add(
        'logger',
        sound.logger,
        'must have a log(message) method',
        'pass PolicyLoggers.stderr(), PolicyLoggers.silent() or { log: (message) => … }',
      );
    }
    problems.throwIfAny('Fleet');
    this.logger = sound.logger ?? PolicyLoggers.stderr();
    this.outdir = sound.outdir ?? process.env.CDK8S_OUTDIR ?? 'dist';
    this.gitops = sound.gitops;
    (sound.clusters ?? []).forEach((c, i) => this.addClusterAt(c, `clusters[${i}]`));
  }

  /** The clusters, in the order they were added. */
  public get clusters(): FleetCluster[] {
    return [...this.clusterList];
  }

  /**
   * Adds a cluster; every service definition added so far runs for it (when its labels match).
   * @throws NodeServiceError listing every problem of `options` (name, version, pools, labels, wave)
   */
  public addCluster(options: FleetClusterOptions): FleetCluster {
    checkArguments('Fleet.addCluster', arguments, [['options', opt(json)]]);
    return this.addClusterAt(options, '');
  }

  /**
   * The cluster called `name`.
   * @throws when the fleet has no such cluster; the message lists its clusters
   */
  public cluster(name: string): FleetCluster {
    checkArguments('Fleet.cluster', arguments, [['name', req(str)]]);
    const found = this.clusterList.find((c) => c.name === name);
    if (found === undefined) {
      throw new NodeServiceError(
        'Fleet.cluster',
        [
          {
            field: 'Fleet.cluster(name)',
            value: show(name),
            problem: `the fleet has no such cluster (its clusters: ${this.clusterList.map((c) => c.name).join(', ') || 'none'})`,
            fix: 'use one of them, or add the cluster first with fleet.addCluster',
          },
        ],
        'arguments',
      );
    }
    return found;
  }

  /**
   * Declares node services once: `services.define(scope, cluster)` runs now for every cluster (matching
   * `options.matchLabels`), and for clusters added later. Errors it throws name the cluster.
   */
  public addServices(services: IFleetServices, options: FleetServicesOptions = {}): void {
    checkArguments('Fleet.addServices', arguments, [
      ['services', opt(json)],
      ['options', opt(json)],
    ]);
    const problems = new ProblemCollector();
    if (services === null || typeof services !== 'object' || typeof (services as IFleetServices).define !== 'function') {
      problems.add('services', services, 'must have a define(scope, cluster) method', 'pass { define: (scope, cluster) => { … } }');
    }
    const sound = checkShape<FleetServicesOptions>(options, SERVICES_OPTIONS_SHAPE, problems, 'addServices options');
    checkLabels('matchLabels', sound.matchLabels, problems);
    problems.throwIfAny('Fleet.addServices');
    const definition = { services, matchLabels: { ...(sound.matchLabels ?? {}) } };
    this.definitions.push(definition);
    for (const cluster of this.clusterList) this.run(definition, cluster);
  }

  /**
   * Writes every cluster's manifests to `<outdir>/clusters/<name>/` (with its Kubernetes version in
   * {@link Fleet.VERSION_FILE}) and the GitOps objects to `<outdir>/gitops/`, replacing the `*.k8s.yaml` files found
   * there. Each cluster is verified as it is synthesized.
   * @throws when a cluster fails its checks; the message starts with `cluster '<name>': `
   */
  public synth(): void {
    checkArguments('Fleet.synth', arguments, []);
    for (const cluster of this.clusterList) {
      removeManifests(cluster.outdir);
      try {
        cluster.app.synth();
      } catch (e) {
        throw named(cluster, e);
      }
      fs.writeFileSync(path.join(cluster.outdir, CLUSTER_VERSION_FILE), `${cluster.kubernetesVersion}\n`);
    }
    const gitopsDir = path.join(this.outdir, FLEET_GITOPS_FOLDER);
    removeManifests(gitopsDir);
    if (this.gitops === undefined || this.clusterList.length === 0) return;
    const app = new App({ outdir: gitopsDir });
    this.gitops._render(app, this.clusterList.map(describeCluster));
    app.synth();
  }

  private addClusterAt(options: FleetClusterOptions, at: string): FleetCluster {
    const problems = new ProblemCollector();
    const o = checkShape<FleetClusterOptions>(options, CLUSTER_SHAPE, problems, 'FleetClusterOptions');
    const where = at === '' ? (n: string) => n : (n: string) => `${at}.${n}`;
    if (o.name !== undefined) {
      problems.check(where('name'), o.name, dns1123LabelError(o.name), 'use a DNS-1123 label such as "edge-eu"');
      if (this.clusterList.some((c) => c.name === o.name)) {
        problems.add(where('name'), o.name, 'is already a cluster of the fleet', 'give every cluster its own name');
      }
    }
    if (o.kubernetesVersion !== undefined) {
      problems.check(
        where('kubernetesVersion'),
        o.kubernetesVersion,
        kubernetesVersionError(o.kubernetesVersion),
        "use KubernetesVersion.V1_28 … V1_33 (e.g. '1.30')",
      );
    }
    if (o.pools !== undefined) {
      if (o.pools.length === 0)
        problems.add(where('pools'), o.pools, 'must list at least one node pool', 'list the node pools of the cluster');
      const seen = new Set<string>();
      o.pools.forEach((p, i) => {
        problems.check(where(`pools[${i}].name`), p.name, p.name.trim() === '' ? 'must not be empty' : undefined, 'name the pool');
        if (seen.has(p.name))
          problems.add(where(`pools[${i}].name`), p.name, 'names a pool listed before', 'give every pool of a cluster its own name');
        seen.add(p.name);
      });
    }
    checkLabels(where('labels'), o.labels, problems);
    if (o.wave !== undefined && o.wave < 0)
      problems.add(where('wave'), o.wave, 'must not be negative', 'use 0 for the first wave, 1 for the next, …');
    if (o.server !== undefined && !/^https?:\/\/[^\s/]+/.test(o.server)) {
      problems.add(
        where('server'),
        o.server,
        'is not an API server URL',
        'use the URL Argo CD knows the cluster by, e.g. "https://kubernetes.default.svc"',
      );
    }
    if (o.kubeConfigSecret !== undefined) {
      problems.check(
        where('kubeConfigSecret'),
        o.kubeConfigSecret,
        dns1123LabelError(o.kubeConfigSecret),
        'name the Secret holding the kubeconfig, e.g. "edge-eu-kubeconfig"',
      );
    }
    if (this.gitops !== undefined && typeof o.name === 'string') {
      const problem = this.gitops._clusterProblem({ name: o.name, server: o.server }, this.clusterList);
      if (problem !== undefined) problems.add(where(problem.field), problem.value, problem.problem, problem.fix);
    }
    problems.throwIfAny(
      typeof o.name === 'string' && o.name !== '' ? `Fleet cluster '${o.name}'` : at === '' ? 'Fleet.addCluster' : `Fleet ${at}`,
    );
    const cluster = new FleetCluster(o, path.join(this.outdir, FLEET_CLUSTERS_FOLDER, o.name), this.logger);
    this.clusterList.push(cluster);
    for (const definition of this.definitions) this.run(definition, cluster);
    return cluster;
  }

  private run(
    definition: { readonly services: IFleetServices; readonly matchLabels: { [key: string]: string } },
    cluster: FleetCluster,
  ): void {
    if (!cluster.matches(definition.matchLabels)) return;
    try {
      definition.services.define(cluster.app, cluster);
    } catch (e) {
      throw named(cluster, e);
    }
  }
}

/** `e` with its message prefixed by the cluster's name (keeping its class, e.g. {@link NodeServiceError}). */
function named(cluster: FleetCluster, e: unknown): Error {
  const prefix = `cluster '${cluster.name}': `;
  if (!(e instanceof Error)) return new Error(`${prefix}${String(e)}`);
  if (e.message.startsWith(prefix)) return e;
  const message = `${prefix}${e.message}`;
  try {
    Object.defineProperty(e, 'message', { value: message, enumerable: false, writable: true, configurable: true });
    if (e instanceof NodeServiceError) {
      Object.defineProperty(e, 'stack', { value: `NodeServiceError: ${message}`, enumerable: false, writable: true, configurable: true });
    }
    return e;
  } catch {
    return new Error(message);
  }
}

/** Removes the `*.k8s.yaml` files of `dir` (a stale chart's file must not outlive it). */
function removeManifests(dir: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) if (entry.endsWith('.k8s.yaml')) fs.rmSync(path.join(dir, entry), { force: true });
}

/** What the GitOps objects need of a cluster. */
function describeCluster(cluster: FleetCluster): GitOpsCluster {
  const daemonSets: Array<{ name: string; namespace: string }> = [];
  for (const o of cluster.app.node.findAll()) {
    if (!ApiObject.isApiObject(o) || o.kind !== 'DaemonSet') continue;
    daemonSets.push({ name: o.name, namespace: o.metadata.namespace ?? 'default' });
  }
  return {
    name: cluster.name,
    wave: cluster.wave,
    labels: cluster.labels,
    server: cluster.server,
    kubeConfigSecret: cluster.kubeConfigSecret,
    daemonSets,
  };
}
