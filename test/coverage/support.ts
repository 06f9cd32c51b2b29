/** Builders of plain Kubernetes objects for the coverage tests. */

export interface NodeOptions {
  readonly labels?: Record<string, string>;
  readonly taints?: Array<{ key: string; value?: string; effect: string }>;
  readonly allocatable?: Record<string, string> | null;
  readonly unschedulable?: boolean;
  readonly conditions?: Array<{ type: string; status: string }>;
}

/** A Node; by default 4 CPU, 16Gi memory, 110 pods allocatable and no taints. */
export function node(name: string, options: NodeOptions = {}): any {
  const allocatable =
    options.allocatable === null
      ? undefined
      : (options.allocatable ?? { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...(options.labels ?? {}) } },
    spec: {
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      ...(allocatable ? { allocatable } : {}),
      conditions: options.conditions ?? [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** A container with optional requests, limits and ports. */
export function container(
  name: string,
  options: { requests?: Record<string, string>; limits?: Record<string, string>; ports?: any[]; restartPolicy?: string } = {},
): any {
  return {
    name,
    image: `registry.example.com/${name}:1.0.0`,
    ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
    ...(options.ports ? { ports: options.ports } : {}),
    resources: { ...(options.requests ? { requests: options.requests } : {}), ...(options.limits ? { limits: options.limits } : {}) },
  };
}

/** A DaemonSet whose pod spec is `spec` (one small container unless `spec.containers` is given). */
export function daemonSet(name: string, spec: any = {}, namespace = 'node-services'): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': name } },
        spec: { containers: [container(name, { requests: { cpu: '10m', memory: '16Mi' } })], ...spec },
      },
    },
  };
}

/** A pod template (`{metadata, spec}`) with one small container unless `spec.containers` is given. */
export function template(spec: any = {}): any {
  return {
    metadata: { labels: { app: 'agent' } },
    spec: { containers: [container('agent', { requests: { cpu: '10m', memory: '16Mi' } })], ...spec },
  };
}

/** A running pod bound to `nodeName`. */
export function pod(name: string, nodeName: string | undefined, spec: any = {}, meta: any = {}, phase = 'Running'): any {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...meta },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [container(name)], ...spec },
    status: { phase },
  };
}

/** Required node affinity with the given terms. */
export function requiredAffinity(...terms: any[]): any {
  return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
}
