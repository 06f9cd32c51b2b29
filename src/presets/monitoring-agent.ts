/**
 * `MonitoringAgent`: a node metrics exporter (node-exporter and the like) with the hardened upstream defaults.
 */

import { Construct } from 'constructs';
import { Probe, Resources } from '../core/container';
import { HostPath, MountPropagation } from '../core/host-path';
import { DnsPolicy, NodeService, NodeServiceProps } from '../core/node-service';
import { Toleration } from '../core/placement';
import { Rollout } from '../core/rollout';
import { NodeServiceKind } from '../policy/kinds';
import { ProblemCollector } from '../core/errors';
import { checkExtraCapabilities, commonServiceProps, NodeServicePresetProps } from './common';

/** Default resources of a monitoring agent: requests 100m CPU / 180Mi, memory limit 180Mi. */
export const MONITORING_AGENT_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '180Mi', memoryLimit: '180Mi' };

/** Props of {@link MonitoringAgent}. */
export interface MonitoringAgentProps extends NodeServicePresetProps {
  /** The exporter image, pinned (e.g. `quay.io/prometheus/node-exporter:v1.8.2`). */
  readonly image: string;
  /**
   * The metrics port (on the node: the agent uses the host network), named `metrics`.
   * @default 9100
   */
  readonly port?: number;
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
  constructor(scope: Construct, id: string, props: MonitoringAgentProps) {
    super(scope, id, MonitoringAgent.serviceProps(scope, id, props));
  }

  private static serviceProps(scope: Construct, id: string, props: MonitoringAgentProps): NodeServiceProps {
    const port = props.port ?? 9100;
    const problems = new ProblemCollector();
    const extra = checkExtraCapabilities(props, problems, 'monitoring agent');
    problems.throwIfAny(`${scope.node.path}/${id}`);
    const htc = { propagation: MountPropagation.HOST_TO_CONTAINER };
    const hostPaths = [
      HostPath.readOnly('/', { ...htc, mountPath: '/host/root', volumeName: 'root' }),
      HostPath.readOnly('/sys', { ...htc, mountPath: '/host/sys', volumeName: 'sys' }),
      HostPath.readOnly('/proc', { ...htc, mountPath: '/host/proc', volumeName: 'proc' }),
      ...(props.extraHostPaths ?? []),
    ];
    const args = props.args ?? [
      '--path.procfs=/host/proc',
      '--path.sysfs=/host/sys',
      '--path.rootfs=/host/root',
      '--path.udev.data=/host/root/run/udev/data',
      `--web.listen-address=:${port}`,
      '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|run/containerd/.+|var/lib/docker/.+|var/lib/kubelet/.+)($|/)',
      '--collector.netclass.ignored-devices=^(veth.*|[a-f0-9]{15})$',
      '--collector.netdev.device-exclude=^(veth.*|[a-f0-9]{15})$',
      ...(props.timeCollector ? [] : ['--no-collector.time']),
    ];
    const tolerations = [...((props.tolerateAllTaints ?? true) ? [Toleration.all()] : []), ...(props.tolerations ?? [])];
    return {
      ...commonServiceProps(props),
      name: props.name ?? 'node-exporter',
      kind: NodeServiceKind.MONITORING_AGENT,
      containers: [
        {
          name: 'exporter',
          image: props.image,
          command: props.command,
          args,
          env: props.env,
          envFrom: props.envFrom,
          ports: [{ name: 'metrics', containerPort: port }],
          readiness: props.readiness ?? Probe.httpGet('/', 'metrics'),
          liveness: props.liveness ?? Probe.httpGet('/', 'metrics', { initialDelaySeconds: 5, periodSeconds: 20 }),
          resources: props.resources ?? MONITORING_AGENT_RESOURCES,
          hostPaths,
          mounts: props.mounts,
          seccompProfile: props.seccompProfile,
          capabilities: [
            ...(props.timeCollector ? ['SYS_TIME'] : []),
            ...extra.capabilities.filter((c) => c !== 'SYS_TIME' || !props.timeCollector),
          ],
          runAsUser: 65534,
          runAsGroup: 65534,
          runAsNonRoot: true,
        },
      ],
      hostNetwork: true,
      hostPID: true,
      dnsPolicy: DnsPolicy.DEFAULT,
      nodeAffinity: props.nodeAffinity,
      tolerations,
      rollout: props.rollout ?? Rollout.maxUnavailable('10%'),
      priorityClassName: props.priorityClassName ?? 'system-cluster-critical',
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 30,
      suppressions: [...extra.suppressions, ...(props.suppressions ?? [])],
    };
  }
}
