/**
 * `LogAgent`: a node log collector (Fluent Bit, Vector, Promtail, Filebeat…) with the defaults upstream experts agree on.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { EnvField, Probe, Resources } from '../core/container';
import { HostPath, HostPathType } from '../core/host-path';
import { madeFrom } from '../k8s/problems';
import { NodeService } from '../core/node-service';
import { SERVICE_PORT_SHAPE, ServicePortOptions, STATE_DIR_SHAPE, StateDirOptions } from '../core/props';
import { bool, oneOf, opt } from '../k8s/shape';
import { NodeServiceKind } from '../policy/kinds';
import { hostPathFrom, NodeServicePresetProps, PresetDefaults, presetService } from './common';

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

/**
 * Props of {@link LogAgent}. `port` is the agent's HTTP port (health and metrics, named `http`, default 2020);
 * `stateDir` is where it keeps its read positions (the one writable host path, a directory directly below `/var/lib`,
 * default `/var/lib/<name>`); `runAsUser` defaults to 0 (log files are root-owned 0640, so agents run as root with
 * every capability dropped); `args` replaces the image's arguments and `extraArgs` adds to them.
 */
export interface LogAgentProps extends NodeServicePresetProps, ServicePortOptions, StateDirOptions {
  /**
   * The container runtime of the nodes; `DOCKER` adds `/var/lib/docker/containers` (read-only).
   * @default ContainerRuntime.CONTAINERD
   */
  readonly containerRuntime?: ContainerRuntime;
  /**
   * Also read the systemd journal (`/run/log/journal`, and `/etc/machine-id`).
   * @default false
   */
  readonly journal?: boolean;
  /**
   * Enrich records with pod and namespace metadata: read-only API access to pods and namespaces.
   * @default true
   */
  readonly metadataEnrichment?: boolean;
}

const LOG_AGENT_SHAPE = {
  ...SERVICE_PORT_SHAPE,
  ...STATE_DIR_SHAPE,
  containerRuntime: opt(oneOf('ContainerRuntime', Object.values(ContainerRuntime))),
  journal: opt(bool),
  metadataEnrichment: opt(bool),
};

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
  /** Default resources (`LOG_AGENT_RESOURCES`). */
  public static readonly DEFAULT_RESOURCES: Resources = LOG_AGENT_RESOURCES;

  /** The host directory holding the read positions. */
  public readonly stateDir: string;

  constructor(scope: Construct, id: string, props: LogAgentProps) {
    const preset = presetService(props, 'LogAgent', LOG_AGENT_SHAPE, (p) => LogAgent.defaults(p));
    super(scope, id, preset.service);
    // With invalid props (reported at synthesis) the state dir is read from the sound ones.
    this.stateDir = LogAgent.stateDirOf(preset.props);
  }

  private static stateDirOf(props: Partial<LogAgentProps>): string {
    return props.stateDir ?? `/var/lib/${props.name ?? 'log-agent'}`;
  }

  private static defaults(props: LogAgentProps): PresetDefaults {
    const hostPaths: HostPath[] = [HostPath.readOnly('/var/log')];
    if (props.containerRuntime === ContainerRuntime.DOCKER) hostPaths.push(HostPath.readOnly('/var/lib/docker/containers'));
    if (props.journal) {
      hostPaths.push(HostPath.readOnly('/run/log/journal', { type: HostPathType.DIRECTORY_OR_CREATE }));
      hostPaths.push(HostPath.readOnly('/etc/machine-id', { type: HostPathType.FILE }));
    }
    const state = HostPath.writable(LogAgent.stateDirOf(props), {
      type: HostPathType.DIRECTORY_OR_CREATE,
      reason: 'keeps read positions across restarts so logs are neither lost nor shipped twice',
      volumeName: 'state',
    });
    hostPaths.push(hostPathFrom(state, 'stateDir'));
    const port = props.port ?? 2020;
    return {
      service: {
        name: 'log-agent',
        kind: NodeServiceKind.LOG_AGENT,
        containers: [
          {
            name: 'agent',
            image: props.image,
            fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
            ports: [madeFrom({ name: 'http', containerPort: port }, 'port', 'containerPort')],
            readiness: Probe.tcpSocket('http', { periodSeconds: 10 }),
            liveness: Probe.tcpSocket('http', { initialDelaySeconds: 10, periodSeconds: 20 }),
            resources: LOG_AGENT_RESOURCES,
            hostPaths,
            runAsUser: 0,
            runAsNonRoot: false,
          },
        ],
        terminationGracePeriodSeconds: 60,
        apiAccess: (props.metadataEnrichment ?? true) ? [ApiPermission.read(['pods', 'namespaces'])] : undefined,
      },
    };
  }
}
