/**
 * What `coverage` keeps of each Node and Pod it reads: only the fields the analysis reads, so that the lists of a
 * fleet-sized cluster are held slim while they are streamed in (`node-input.ts`).
 */

/** What the analysis reads of a Node: name, labels, taints, allocatable, the Ready and DiskPressure conditions, the OS. */
export function slimNode(node: any): any {
  const conditions = Array.isArray(node?.status?.conditions)
    ? node.status.conditions
        .filter((c: any) => c?.type === 'Ready' || c?.type === 'DiskPressure')
        .map((c: any) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }))
    : undefined;
  const os = node?.status?.nodeInfo?.operatingSystem;
  return {
    kind: 'Node',
    metadata: { name: node.metadata.name, labels: node.metadata.labels },
    spec: { taints: node?.spec?.taints },
    status: { allocatable: node?.status?.allocatable, conditions, ...(os !== undefined ? { nodeInfo: { operatingSystem: os } } : {}) },
  };
}

function slimContainers(list: unknown): any {
  if (!Array.isArray(list)) return list;
  return list.map((c: any) => ({ name: c?.name, resources: c?.resources, ports: c?.ports, restartPolicy: c?.restartPolicy }));
}

/** What the analysis reads of a Pod bound to a node: identity, owners, requests, ports, priority; `undefined` when it does not count. */
export function slimPod(pod: any): any {
  const spec = pod?.spec;
  const phase = pod?.status?.phase;
  if (typeof spec?.nodeName !== 'string' || spec.nodeName.length === 0 || phase === 'Succeeded' || phase === 'Failed') return undefined;
  const meta = pod.metadata ?? {};
  return {
    kind: 'Pod',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      labels: meta.labels,
      ownerReferences: Array.isArray(meta.ownerReferences)
        ? meta.ownerReferences.map((o: any) => ({ kind: o?.kind, name: o?.name }))
        : meta.ownerReferences,
    },
    spec: {
      nodeName: spec.nodeName,
      containers: slimContainers(spec.containers),
      initContainers: slimContainers(spec.initContainers),
      overhead: spec.overhead,
      priority: spec.priority,
      priorityClassName: spec.priorityClassName,
      preemptionPolicy: spec.preemptionPolicy,
      hostNetwork: spec.hostNetwork,
      runtimeClassName: spec.runtimeClassName,
    },
    status: { phase },
  };
}
