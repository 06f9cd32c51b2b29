/**
 * The agent container of a {@link CniPlugin}: the host paths, capabilities, probes and resources of a CNI node agent.
 */

import { ContainerSpec, EnvField, Probe, Resources } from '../core/container';
import { derivedFrom, madeFrom } from '../k8s/problems';
import { HostPath, HostPathType, MountPropagation } from '../core/host-path';
import type { CniPluginProps } from './cni-plugin';
import { kindProfile, NodeServiceKind } from '../policy/kinds';
import { hostPathFrom } from './common';
import { cniConfMount } from './cni-installer';

/** Default resources of a CNI agent: requests 100m CPU / 64Mi, memory limit 256Mi, no CPU limit (never throttle the datapath). */
export const CNI_PLUGIN_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '64Mi', memoryLimit: '256Mi' };

/**
 * The capabilities a CNI agent gets by default, from the kind table: NET_ADMIN (interfaces, routes, iptables) and
 * NET_RAW (raw sockets).
 */
export const CNI_PLUGIN_CAPABILITIES: readonly string[] = kindProfile(NodeServiceKind.CNI_PLUGIN).defaultCapabilities;

/** The host paths of the agent keeping its runtime state in `stateDir`. */
function agentHostPaths(props: CniPluginProps, stateDir: string): HostPath[] {
  const hostPaths: HostPath[] = [
    HostPath.writable('/run/xtables.lock', {
      type: HostPathType.FILE_OR_CREATE,
      volumeName: 'xtables-lock',
      reason: 'iptables takes this lock so that the CNI and kube-proxy never rewrite the node rules at the same time',
    }),
    HostPath.readOnly('/lib/modules', { volumeName: 'lib-modules' }),
    hostPathFrom(
      HostPath.writable(stateDir, {
        type: HostPathType.DIRECTORY_OR_CREATE,
        volumeName: 'state',
        reason: 'keeps the node network state (e.g. the node subnet lease) across agent restarts',
      }),
      'stateDir',
    ),
  ];
  if (props.agentWritesCniConfig) hostPaths.push(cniConfMount('the agent'));
  if (props.bpfFilesystem) {
    const propagation = props.privileged ? MountPropagation.BIDIRECTIONAL : MountPropagation.HOST_TO_CONTAINER;
    const reason = 'pins eBPF maps and programs so the datapath survives agent restarts';
    hostPaths.push(HostPath.writable('/sys/fs/bpf', { volumeName: 'bpf-maps', propagation, reason }));
  }
  return hostPaths;
}

/** The `agent` container, keeping its runtime state in `stateDir`, probed on `healthPort` when it is given. @internal */
export function cniAgent(props: CniPluginProps, stateDir: string): ContainerSpec {
  const healthPath = props.healthPath ?? '/healthz';
  const health = props.healthPort !== undefined;
  const agent: ContainerSpec = {
    name: 'agent',
    image: props.image,
    fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
    ports: health ? [madeFrom({ name: 'health', containerPort: props.healthPort! }, 'healthPort', 'containerPort')] : undefined,
    readiness: Probe.httpGet(healthPath, 'health', { periodSeconds: 10 }),
    liveness: health ? Probe.httpGet(healthPath, 'health', { initialDelaySeconds: 10, periodSeconds: 30, failureThreshold: 6 }) : undefined,
    resources: CNI_PLUGIN_RESOURCES,
    hostPaths: agentHostPaths(props, stateDir),
    capabilities: [...CNI_PLUGIN_CAPABILITIES],
    privileged: props.privileged === true,
    privilegedReason: props.privilegedReason,
    runAsUser: 0,
    runAsNonRoot: false,
  };
  madeFrom(agent, 'privileged', 'privileged');
  madeFrom(agent, 'privilegedReason', 'privilegedReason');
  // The default readiness probe is the health endpoint's: without a health port, that is the problem to report.
  return derivedFrom(agent, 'healthPort', 'readiness');
}
