/**
 * `GpuMonitor`: a GPU metrics exporter (NVIDIA DCGM exporter) on GPU nodes only, with the defaults NVIDIA ships.
 */

import { Construct } from 'constructs';
import { EnvField, Mount, Probe, Resources } from '../core/container';
import { HostPath } from '../core/host-path';
import { madeFrom } from '../k8s/problems';
import { NodeService } from '../core/node-service';
import { SERVICE_PORT_SHAPE, ServicePortOptions } from '../core/props';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from '../core/placement';
import { bool, opt, checkArguments } from '../k8s/shape';
import { NodeServiceKind } from '../policy/kinds';
import { NodeServicePresetProps, PresetDefaults, presetService } from './common';

/** Default resources of a GPU monitor: requests 100m CPU / 128Mi, memory limit 512Mi, no CPU limit. */
export const GPU_MONITOR_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '512Mi' };

/** The kubelet PodResources API directory: maps GPUs to the pods using them. */
export const POD_RESOURCES_DIR = '/var/lib/kubelet/pod-resources';

/** The DCGM counters file with the profiling metrics (`DCGM_FI_PROF_*`), shipped in the DCGM exporter image. */
export const DCGM_PROFILING_COUNTERS = '/etc/dcgm-exporter/dcp-metrics-included.csv';

/**
 * Props of {@link GpuMonitor}. `port` is the metrics port, named `metrics`, default 9400 (bound through
 * `DCGM_EXPORTER_LISTEN`); `apiAccess` is none by default (e.g. read pods to label metrics with pod labels).
 */
export interface GpuMonitorProps extends NodeServicePresetProps, ServicePortOptions {
  /**
   * Collect the profiling metrics (`DCGM_FI_PROF_*`: SM activity, tensor core use, memory bandwidth), which need the
   * `SYS_ADMIN` capability.
   * @default false
   */
  readonly profilingMetrics?: boolean;
}

const GPU_MONITOR_SHAPE = { ...SERVICE_PORT_SHAPE, profilingMetrics: opt(bool) };

/**
 * A GPU metrics exporter on GPU nodes only. Defaults: nodes labelled `nvidia.com/gpu.present=true` (GPU operator) or
 * `feature.node.kubernetes.io/pci-10de.present=true` (Node Feature Discovery, NVIDIA PCI vendor) — replace with
 * `nodeAffinity`, e.g. `nvidia.com/gpu.deploy.dcgm-exporter=true`; tolerates the `nvidia.com/gpu` NoSchedule taint
 * (any value); mounts only the kubelet PodResources directory `/var/lib/kubelet/pod-resources` read-only; no host
 * network or PID; root user with every capability dropped (`SYS_ADMIN` only with `profilingMetrics`), a read-only
 * root filesystem and an in-memory `/tmp`; `DCGM_EXPORTER_KUBERNETES=true`, `DCGM_EXPORTER_LISTEN=:9400`,
 * `NODE_NAME` from the downward API; port 9400 with HTTP readiness and liveness on `/health` after 45 s (DCGM starts
 * slowly); requests 100m/128Mi with a 512Mi memory limit; `system-node-critical`; rolling update one node at a time;
 * 30 s to stop; no API access. Host-path allowlist: `/var/lib/kubelet/pod-resources` (read-only). Capability
 * allowlist: SYS_ADMIN. Where the NVIDIA container runtime is not the nodes' default (the GPU operator installs it as
 * the `nvidia` RuntimeClass), pass `runtimeClassName: 'nvidia'` so the exporter sees the GPUs.
 */
export class GpuMonitor extends NodeService {
  /** Default resources (`GPU_MONITOR_RESOURCES`). */
  public static readonly DEFAULT_RESOURCES: Resources = GPU_MONITOR_RESOURCES;
  /** The kubelet's pod-resources directory the monitor reads (`POD_RESOURCES_DIR`). */
  public static readonly POD_RESOURCES_DIR: string = POD_RESOURCES_DIR;
  /** The DCGM counters file with the profiling metrics, in the exporter image (`DCGM_PROFILING_COUNTERS`). */
  public static readonly PROFILING_COUNTERS_FILE: string = DCGM_PROFILING_COUNTERS;

  /** The default GPU-node selection: either GPU-present label (GPU operator, Node Feature Discovery). */
  public static gpuNodeAffinity(): NodeAffinityTerm[] {
    checkArguments('GpuMonitor.gpuNodeAffinity', arguments, []);
    return [
      { requirements: [NodeRequirement.in('nvidia.com/gpu.present', ['true'])] },
      { requirements: [NodeRequirement.in('feature.node.kubernetes.io/pci-10de.present', ['true'])] },
    ];
  }

  constructor(scope: Construct, id: string, props: GpuMonitorProps) {
    super(scope, id, presetService(props, 'GpuMonitor', GPU_MONITOR_SHAPE, GpuMonitor.defaults).service);
  }

  private static defaults(props: GpuMonitorProps): PresetDefaults {
    const port = props.port ?? 9400;
    const profiling = props.profilingMetrics === true;
    return {
      service: {
        name: 'dcgm-exporter',
        kind: NodeServiceKind.GPU_MONITOR,
        containers: [
          {
            name: 'exporter',
            image: props.image,
            env: {
              DCGM_EXPORTER_KUBERNETES: 'true',
              DCGM_EXPORTER_LISTEN: `:${port}`,
              ...(profiling ? { DCGM_EXPORTER_COLLECTORS: DCGM_PROFILING_COUNTERS } : {}),
            },
            fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
            ports: [madeFrom({ name: 'metrics', containerPort: port }, 'port', 'containerPort')],
            readiness: Probe.httpGet('/health', 'metrics', { initialDelaySeconds: 45, periodSeconds: 10 }),
            liveness: Probe.httpGet('/health', 'metrics', { initialDelaySeconds: 45, periodSeconds: 5 }),
            resources: GPU_MONITOR_RESOURCES,
            hostPaths: [HostPath.readOnly(POD_RESOURCES_DIR, { volumeName: 'pod-resources' })],
            mounts: [Mount.emptyDir('/tmp', { memory: true, sizeLimit: '64Mi', volumeName: 'tmp' })],
            capabilities: profiling ? ['SYS_ADMIN'] : [],
            runAsUser: 0,
            runAsNonRoot: false,
          },
        ],
        nodeAffinity: GpuMonitor.gpuNodeAffinity(),
        tolerations: [Toleration.exists('nvidia.com/gpu', { effect: TaintEffect.NO_SCHEDULE })],
        priorityClassName: 'system-node-critical',
        suppressions: profiling
          ? [{ ruleId: 'dangerous-capability', reason: 'SYS_ADMIN: DCGM reads the GPU profiling counters (DCGM_FI_PROF_*) only with it' }]
          : [],
      },
      // Selecting GPU nodes by label already keeps the monitor off virtual nodes.
      realNodesOnly: false,
    };
  }
}
