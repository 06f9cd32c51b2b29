/**
 * `LogAgent`: a node log collector (Fluent Bit, Vector, Promtail, Filebeat…) with the defaults upstream experts agree on.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { EnvField, Probe, Resources } from '../core/container';
import { HostPath, HostPathType } from '../core/host-path';
import { NodeService, NodeServiceProps } from '../core/node-service';
import { Rollout } from '../core/rollout';
import { NodeServiceKind } from '../policy/kinds';
import { ProblemCollector } from '../core/errors';
import { checkExtraCapabilities, commonServiceProps, NodeServicePresetProps } from './common';

/** The container runtime whose log layout the agent reads. */
export enum ContainerRuntime {
  /** containerd: logs under `/var/log/pods` (symlinked from `/var/log/containers`). */
  CONTAINERD = 'containerd',
  /** CRI-O: logs under `/var/log/pods`. */
  CRI_O = 'cri-o',
  /** Docker Engine (cri-dockerd): logs under `/var/lib/docker/containers` too. */
  DOCKER = 'docker',
}

/** Default resources of a log agent: requests 100m CPU / 128Mi, memory limit 256Mi, no CPU limit. */
export const LOG_AGENT_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '256Mi' };

/** Props of {@link LogAgent}. */
export interface LogAgentProps extends NodeServicePresetProps {
  /** The agent image, pinned (e.g. `cr.fluentbit.io/fluent/fluent-bit:3.1.9`). */
  readonly image: string;
  /**
   * The container runtime of the nodes; `DOCKER` adds `/var/lib/docker/containers` (read-only).
   * @default ContainerRuntime.CONTAINERD
   */
  readonly containerRuntime?: ContainerRuntime;
  /**
   * Host directory where the agent keeps its read positions (the one writable host path, `DirectoryOrCreate`).
   * Must be a directory directly below `/var/lib`.
   * @default `/var/lib/<name>`
   */
  readonly stateDir?: string;
  /**
   * Also read the systemd journal (`/run/log/journal`, and `/etc/machine-id`).
   * @default false
   */
  readonly journal?: boolean;
  /**
   * The agent's HTTP port (health and metrics), named `http`.
   * @default 2020
   */
  readonly port?: number;
  /**
   * Enrich records with pod and namespace metadata: read-only API access to pods and namespaces.
   * @default true
   */
  readonly metadataEnrichment?: boolean;
  /**
   * User ID. Log files are root-owned (0640), so agents run as root with every capability dropped.
   * @default 0
   */
  readonly runAsUser?: number;
}

/**
 * A log collector on every targeted node. Defaults: reads `/var/log` (which holds `/var/log/pods` and the
 * `/var/log/containers` symlinks) read-only, keeps read positions in one declared writable state dir, no host network
 * or PID, root user with every capability dropped and a read-only root filesystem, `NODE_NAME` from the downward API,
 * requests 100m/128Mi with a 256Mi memory limit, TCP readiness and liveness probes on the `http` port, rolling update
 * one node at a time, 60 s to flush buffers, virtual nodes excluded, read-only API access to pods and namespaces for
 * metadata. Host-path allowlist: `/var/log`, `/var/lib/docker/containers`, `/run/log/journal`, `/etc/machine-id`
 * (read-only) and one directory below `/var/lib` (writable).
 */
export class LogAgent extends NodeService {
  /** The host directory holding the read positions. */
  public readonly stateDir: string;

  constructor(scope: Construct, id: string, props: LogAgentProps) {
    super(scope, id, LogAgent.serviceProps(scope, id, props));
    this.stateDir = LogAgent.stateDirOf(props);
  }

  private static stateDirOf(props: LogAgentProps): string {
    return props.stateDir ?? `/var/lib/${props.name ?? 'log-agent'}`;
  }

  private static serviceProps(scope: Construct, id: string, props: LogAgentProps): NodeServiceProps {
    const name = props.name ?? 'log-agent';
    const port = props.port ?? 2020;
    const hostPaths: HostPath[] = [HostPath.readOnly('/var/log')];
    if (props.containerRuntime === ContainerRuntime.DOCKER) hostPaths.push(HostPath.readOnly('/var/lib/docker/containers'));
    if (props.journal) {
      hostPaths.push(HostPath.readOnly('/run/log/journal', { type: HostPathType.DIRECTORY_OR_CREATE }));
      hostPaths.push(HostPath.readOnly('/etc/machine-id', { type: HostPathType.FILE }));
    }
    const stateDir = LogAgent.stateDirOf(props);
    hostPaths.push(
      HostPath.writable(stateDir, {
        type: HostPathType.DIRECTORY_OR_CREATE,
        reason: 'keeps read positions across restarts so logs are neither lost nor shipped twice',
        volumeName: 'state',
      }),
    );
    hostPaths.push(...(props.extraHostPaths ?? []));
    const enrich = props.metadataEnrichment ?? true;
    const problems = new ProblemCollector();
    const extra = checkExtraCapabilities(props, problems, 'log agent');
    problems.throwIfAny(`${scope.node.path}/${id}`);
    return {
      ...commonServiceProps(props),
      name,
      kind: NodeServiceKind.LOG_AGENT,
      containers: [
        {
          name: 'agent',
          image: props.image,
          command: props.command,
          args: props.args,
          env: props.env,
          envFrom: props.envFrom,
          fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
          ports: [{ name: 'http', containerPort: port }],
          readiness: props.readiness ?? Probe.tcpSocket('http', { periodSeconds: 10 }),
          liveness: props.liveness ?? Probe.tcpSocket('http', { initialDelaySeconds: 10, periodSeconds: 20 }),
          resources: props.resources ?? LOG_AGENT_RESOURCES,
          hostPaths,
          mounts: props.mounts,
          seccompProfile: props.seccompProfile,
          capabilities: extra.capabilities,
          runAsUser: props.runAsUser ?? 0,
          runAsNonRoot: (props.runAsUser ?? 0) === 0 ? false : undefined,
        },
      ],
      nodeAffinity: props.nodeAffinity,
      tolerations: props.tolerations,
      rollout: props.rollout ?? Rollout.maxUnavailable(1),
      priorityClassName: props.priorityClassName,
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 60,
      apiAccess: enrich ? [ApiPermission.read(['pods', 'namespaces'])] : undefined,
      suppressions: [...extra.suppressions, ...(props.suppressions ?? [])],
    };
  }
}
