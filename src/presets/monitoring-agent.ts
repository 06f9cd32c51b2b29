/**
 * `MonitoringAgent`: a node metrics exporter (node-exporter and the like) with the hardened upstream defaults.
 */

import { Construct } from 'constructs';
import { Probe, Resources } from '../core/container';
import { madeFrom, ProblemCollector } from '../k8s/problems';
import { HostPath, MountPropagation } from '../core/host-path';
import { NodeService } from '../core/node-service';
import { DnsPolicy } from '../core/props';
import { SERVICE_PORT_SHAPE, ServicePortOptions } from '../core/props';
import { Toleration } from '../core/placement';
import { Rollout } from '../core/rollout';
import { bool, opt } from '../k8s/shape';
import { NodeServiceKind } from '../policy/kinds';
import { checkPortBinding, NodeServicePresetProps, PresetDefaults, presetService } from './common';

/** Default resources of a monitoring agent: requests 100m CPU / 180Mi, memory limit 180Mi. */
export const MONITORING_AGENT_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '180Mi', memoryLimit: '180Mi' };

/**
 * Props of {@link MonitoringAgent}. `port` is the metrics port (on the node: the agent uses the host network), named
 * `metrics`, default 9100; the default arguments bind it (`--web.listen-address=:<port>`). `args` replaces the default
 * arguments (then they must bind `port` themselves); `extraArgs` adds to them, e.g. `['--collector.systemd']`.
 */
export interface MonitoringAgentProps extends NodeServicePresetProps, ServicePortOptions {
  /**
   * Enable the time collector, which needs the `SYS_TIME` capability.
   * @default false
   */
  readonly timeCollector?: boolean;
  /**
   * Tolerate every taint, so that every node (including tainted and control-plane nodes) reports metrics.
   * @default true
   */
  readonly tolerateAllTaints?: boolean;
}

const MONITORING_AGENT_SHAPE = { ...SERVICE_PORT_SHAPE, timeCollector: opt(bool), tolerateAllTaints: opt(bool) };

/**
 * A node metrics exporter on every node. Defaults: host network and host PID, `/` (at `/host/root`), `/sys` (at
 * `/host/sys`) and `/proc` (at `/host/proc`) read-only with HostToContainer propagation, user 65534 (non-root) with
 * every capability dropped (plus `SYS_TIME` only for the time collector), read-only root filesystem, node-exporter
 * style arguments pointing at those paths, port 9100 with HTTP readiness and liveness on `/`, DNS policy `Default` (it
 * resolves nothing), tolerates every taint, `system-cluster-critical`, rolling update 10 % of nodes at a time (never
 * surge: the port is on the host), requests 100m/180Mi with a 180Mi memory limit, virtual nodes excluded, no API access.
 * Host-path allowlist: anything read-only; nothing writable.
 */
export class MonitoringAgent extends NodeService {
  /** Default resources (`MONITORING_AGENT_RESOURCES`). */
  public static readonly DEFAULT_RESOURCES: Resources = MONITORING_AGENT_RESOURCES;

  constructor(scope: Construct, id: string, props: MonitoringAgentProps) {
    super(scope, id, presetService(props, 'MonitoringAgent', MONITORING_AGENT_SHAPE, MonitoringAgent.defaults).service);
  }

  private static defaults(props: MonitoringAgentProps, problems: ProblemCollector): PresetDefaults {
    const port = props.port ?? 9100;
    const listen = `--web.listen-address=:${port}`;
    checkPortBinding(props, problems, [listen]);
    const htc = { propagation: MountPropagation.HOST_TO_CONTAINER };
    return {
      service: {
        name: 'node-exporter',
        kind: NodeServiceKind.MONITORING_AGENT,
        containers: [
          {
            name: 'exporter',
            image: props.image,
            args: [
              '--path.procfs=/host/proc',
              '--path.sysfs=/host/sys',
              '--path.rootfs=/host/root',
              '--path.udev.data=/host/root/run/udev/data',
              listen,
              '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|run/containerd/.+|var/lib/docker/.+|var/lib/kubelet/.+)($|/)',
              '--collector.netclass.ignored-devices=^(veth.*|[a-f0-9]{15})$',
              '--collector.netdev.device-exclude=^(veth.*|[a-f0-9]{15})$',
              ...(props.timeCollector ? [] : ['--no-collector.time']),
            ],
            ports: [madeFrom({ name: 'metrics', containerPort: port }, 'port', 'containerPort')],
            readiness: Probe.httpGet('/', 'metrics'),
            liveness: Probe.httpGet('/', 'metrics', { initialDelaySeconds: 5, periodSeconds: 20 }),
            resources: MONITORING_AGENT_RESOURCES,
            hostPaths: [
              HostPath.readOnly('/', { ...htc, mountPath: '/host/root', volumeName: 'root' }),
              HostPath.readOnly('/sys', { ...htc, mountPath: '/host/sys', volumeName: 'sys' }),
              HostPath.readOnly('/proc', { ...htc, mountPath: '/host/proc', volumeName: 'proc' }),
            ],
            capabilities: props.timeCollector ? ['SYS_TIME'] : [],
            runAsUser: 65534,
            runAsGroup: 65534,
            runAsNonRoot: true,
          },
        ],
        hostNetwork: true,
        hostPID: true,
        dnsPolicy: DnsPolicy.DEFAULT,
        tolerations: (props.tolerateAllTaints ?? true) ? [Toleration.all()] : [],
        rollout: Rollout.maxUnavailablePercent(10),
        priorityClassName: 'system-cluster-critical',
        terminationGracePeriodSeconds: 30,
      },
    };
  }
}
