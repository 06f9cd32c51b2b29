/**
 * `GpuMonitor`: a GPU metrics exporter (NVIDIA DCGM exporter) on GPU nodes only, with the defaults NVIDIA ships.
 */

import { Construct } from 'constructs';
import { ApiPermission } from '../core/api-access';
import { EnvField, Mount, Probe, Resources } from '../core/container';
import { ProblemCollector } from '../core/errors';
import { HostPath } from '../core/host-path';
import { NodeService, NodeServiceProps, RuleSuppression } from '../core/node-service';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from '../core/placement';
import { Rollout } from '../core/rollout';
import { NodeServiceKind } from '../policy/kinds';
import { commonServiceProps, NodeServicePresetProps, checkExtraCapabilities } from './common';

/** Default resources of a GPU monitor: requests 100m CPU / 128Mi, memory limit 512Mi, no CPU limit. */
export const GPU_MONITOR_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '512Mi' };

/** The kubelet PodResources API directory: maps GPUs to the pods using them. */
export const POD_RESOURCES_DIR = '/var/lib/kubelet/pod-resources';

/** The DCGM counters file with the profiling metrics (`DCGM_FI_PROF_*`), shipped in the DCGM exporter image. */
export const DCGM_PROFILING_COUNTERS = '/etc/dcgm-exporter/dcp-metrics-included.csv';

/** Props of {@link GpuMonitor}. */
export interface GpuMonitorProps extends NodeServicePresetProps {
  /** The exporter image, pinned (e.g. `nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-distroless`). */
  readonly image: string;
  /**
   * The metrics port, named `metrics`.
   * @default 9400
   */
  readonly port?: number;
  /**
   * Collect the profiling metrics (`DCGM_FI_PROF_*`: SM activity, tensor core use, memory bandwidth), which need the
   * `SYS_ADMIN` capability.
   * @default false
   */
  readonly profilingMetrics?: boolean;
  /**
   * Kubernetes API access of the exporter (e.g. read pods to label metrics with pod labels). `[]` or unset means no
   * API access and no token.
   * @default none
   */
  readonly apiAccess?: ApiPermission[];
}

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
 * allowlist: SYS_ADMIN.
 */
export class GpuMonitor extends NodeService {
  /** The default GPU-node selection: either GPU-present label (GPU operator, Node Feature Discovery). */
  public static gpuNodeAffinity(): NodeAffinityTerm[] {
    return [
      { requirements: [NodeRequirement.in('nvidia.com/gpu.present', ['true'])] },
      { requirements: [NodeRequirement.in('feature.node.kubernetes.io/pci-10de.present', ['true'])] },
    ];
  }

  constructor(scope: Construct, id: string, props: GpuMonitorProps) {
    super(scope, id, GpuMonitor.serviceProps(scope, id, props));
  }

  private static serviceProps(scope: Construct, id: string, props: GpuMonitorProps): NodeServiceProps {
    const problems = new ProblemCollector();
    const { capabilities: extraCapabilities, suppressions: extraSuppressions } = checkExtraCapabilities(props, problems, 'exporter');
    problems.throwIfAny(scope.node.path ? `${scope.node.path}/${id}` : id);

    const port = props.port ?? 9400;
    const profiling = props.profilingMetrics === true;
    const baseCapabilities = profiling ? ['SYS_ADMIN'] : [];
    const suppressions: RuleSuppression[] = [];
    if (profiling) {
      suppressions.push({
        ruleId: 'dangerous-capability',
        reason: 'SYS_ADMIN: DCGM reads the GPU profiling counters (DCGM_FI_PROF_*) only with it',
      });
    }
    suppressions.push(...extraSuppressions);
    suppressions.push(...(props.suppressions ?? []));

    return {
      ...commonServiceProps(props),
      name: props.name ?? 'dcgm-exporter',
      kind: NodeServiceKind.GPU_MONITOR,
      containers: [
        {
          name: 'exporter',
          image: props.image,
          command: props.command,
          args: props.args,
          env: {
            DCGM_EXPORTER_KUBERNETES: 'true',
            DCGM_EXPORTER_LISTEN: `:${port}`,
            ...(profiling ? { DCGM_EXPORTER_COLLECTORS: DCGM_PROFILING_COUNTERS } : {}),
            ...(props.env ?? {}),
          },
          envFrom: props.envFrom,
          fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
          ports: [{ name: 'metrics', containerPort: port }],
          readiness: props.readiness ?? Probe.httpGet('/health', 'metrics', { initialDelaySeconds: 45, periodSeconds: 10 }),
          liveness: props.liveness ?? Probe.httpGet('/health', 'metrics', { initialDelaySeconds: 45, periodSeconds: 5 }),
          resources: props.resources ?? GPU_MONITOR_RESOURCES,
          hostPaths: [HostPath.readOnly(POD_RESOURCES_DIR, { volumeName: 'pod-resources' }), ...(props.extraHostPaths ?? [])],
          mounts: [Mount.emptyDir('/tmp', { memory: true, sizeLimit: '64Mi', volumeName: 'tmp' }), ...(props.mounts ?? [])],
          seccompProfile: props.seccompProfile,
          capabilities: [...baseCapabilities, ...extraCapabilities.filter((c) => !baseCapabilities.includes(c))],
          runAsUser: 0,
          runAsNonRoot: false,
        },
      ],
      nodeAffinity: props.nodeAffinity ?? GpuMonitor.gpuNodeAffinity(),
      // Selecting GPU nodes by label already keeps the monitor off virtual nodes.
      nodeRequirements: [],
      tolerations: [Toleration.exists('nvidia.com/gpu', { effect: TaintEffect.NO_SCHEDULE }), ...(props.tolerations ?? [])],
      rollout: props.rollout ?? Rollout.maxUnavailable(1),
      priorityClassName: props.priorityClassName ?? 'system-node-critical',
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 30,
      apiAccess: props.apiAccess,
      suppressions,
    };
  }
}
