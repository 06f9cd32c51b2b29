/** Small builders of plain Kubernetes objects for the day-2 tests. */

/** A Ready Linux node with room for a few pods; `extra` overrides labels, taints, allocatable and Ready status. */
export function node(
  name: string,
  extra: {
    labels?: Record<string, string>;
    taints?: any[];
    allocatable?: Record<string, string>;
    ready?: 'True' | 'False' | 'Unknown';
  } = {},
): any {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': name, ...(extra.labels ?? {}) } },
    spec: extra.taints ? { taints: extra.taints } : {},
    status: {
      allocatable: extra.allocatable ?? { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '50Gi' },
      conditions: [{ type: 'Ready', status: extra.ready ?? 'True' }],
    },
  };
}

/** `count` nodes named `<prefix>-1` … */
export function nodes(count: number, prefix = 'node', extra: Parameters<typeof node>[1] = {}): any[] {
  return Array.from({ length: count }, (_, i) => node(`${prefix}-${i + 1}`, extra));
}

/** Options of {@link daemonSet}. */
export interface DaemonSetOptions {
  readonly name?: string;
  readonly namespace?: string;
  readonly image?: string;
  readonly strategy?: any;
  readonly minReadySeconds?: number;
  readonly tolerateEverything?: boolean;
  readonly hostPort?: number;
  readonly memory?: string;
  readonly annotations?: Record<string, string>;
  readonly podAnnotations?: Record<string, string>;
  readonly spec?: Record<string, unknown>;
  readonly container?: Record<string, unknown>;
}

/** A DaemonSet `agent` in `ops` with one container `agent`. */
export function daemonSet(options: DaemonSetOptions = {}): any {
  const name = options.name ?? 'agent';
  const labels = { 'app.kubernetes.io/name': name };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: options.namespace ?? 'ops', ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: {
      selector: { matchLabels: labels },
      ...(options.minReadySeconds !== undefined ? { minReadySeconds: options.minReadySeconds } : {}),
      ...(options.strategy !== undefined ? { updateStrategy: options.strategy } : {}),
      template: {
        metadata: { labels, ...(options.podAnnotations ? { annotations: options.podAnnotations } : {}) },
        spec: {
          ...(options.tolerateEverything ? { tolerations: [{ operator: 'Exists' }] } : {}),
          containers: [
            {
              name: 'agent',
              image: options.image ?? 'registry.example.com/agent:1.0.0',
              resources: { requests: { cpu: '100m', memory: options.memory ?? '64Mi' } },
              ...(options.hostPort !== undefined ? { ports: [{ containerPort: options.hostPort, hostPort: options.hostPort }] } : {}),
              ...(options.container ?? {}),
            },
          ],
          ...(options.spec ?? {}),
        },
      },
    },
  };
}

/** A running pod of `ds` on `nodeName`, owned by it, running `image` (default: the DaemonSet's), ready unless said. */
export function podOf(ds: any, nodeName: string, options: { image?: string; ready?: boolean; terminating?: boolean } = {}): any {
  const template = ds.spec.template;
  const containers = template.spec.containers.map((c: any) => ({ ...c, ...(options.image ? { image: options.image } : {}) }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${ds.metadata.name}-${nodeName}`,
      namespace: ds.metadata.namespace,
      labels: { ...template.metadata.labels, 'controller-revision-hash': options.image ? 'old' : 'new' },
      ...(template.metadata.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name, controller: true }],
      ...(options.terminating ? { deletionTimestamp: '2026-12-01T00:00:00Z' } : {}),
    },
    spec: { ...template.spec, containers, nodeName },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }] },
  };
}

/** Wraps objects as the manifest reader returns them. */
export function inputs(...objects: any[]): Array<{ object: any; file: string; line: number }> {
  return objects.map((object, i) => ({ object, file: 'test.yaml', line: i + 1 }));
}
