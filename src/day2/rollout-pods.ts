/**
 * The pods of a rollout plan: which pods belong to a DaemonSet, whether a pod runs a given template, and whether a
 * surge pod fits next to the old one.
 */

import type {
  WireCondition,
  WireContainer,
  WireDaemonSet,
  WireNode,
  WireOwnerReference,
  WirePod,
  WirePodSpec,
  WirePodTemplateSpec,
} from '../k8s/wire';
import { checkPodOnNode } from '../coverage/evaluate';
import { CoverageReason } from '../coverage/types';
import { parseQuantity } from '../k8s/quantity';
import { canonicalJson, nameOf, namespaceOf } from './objects';

/** The pods of a DaemonSet: owned by it (ownerReferences), or, without owner references, matching its selector. */
export function ownPods(ds: WireDaemonSet, pods: readonly WirePod[]): WirePod[] {
  const ns = namespaceOf(ds);
  const name = nameOf(ds);
  const matchLabels = ds?.spec?.selector?.matchLabels;
  return pods.filter((p) => {
    if (namespaceOf(p) !== ns) return false;
    const owners = p?.metadata?.ownerReferences;
    if (Array.isArray(owners) && owners.length > 0)
      return owners.some((o: WireOwnerReference | undefined) => o?.kind === 'DaemonSet' && o?.name === name);
    if (matchLabels == null || typeof matchLabels !== 'object' || Object.keys(matchLabels).length === 0) return false;
    const labels = p?.metadata?.labels ?? {};
    return Object.entries(matchLabels).every(([k, v]) => labels[k] === v);
  });
}

/** A resource list by value (`"1Gi"` and `"1024Mi"` are the same), sorted by name. */
function resourceValues(list: { readonly [name: string]: number | string } | undefined): Array<[string, number | string]> {
  if (list == null || typeof list !== 'object') return [];
  return Object.keys(list)
    .sort()
    .map((name) => [name, parseQuantity(list[name]) ?? String(list[name])]);
}

/** Requests and limits as the pod has them: `SetDefaults_Pod` copies each limit without a request into the requests. */
function resourceSignature(c: WireContainer | undefined): unknown {
  const limits = c?.resources?.limits;
  const requests = { ...(limits && typeof limits === 'object' ? limits : {}), ...(c?.resources?.requests ?? {}) };
  return [resourceValues(requests), resourceValues(limits)];
}

/** What the pod takes from the template as it is: container names, images, commands, arguments, resources by value. */
function containerSignature(spec: WirePodSpec | undefined): string {
  const part = (list: WireContainer[] | undefined) =>
    Array.isArray(list)
      ? list.map((c: WireContainer | undefined) => [c?.name, c?.image, c?.command ?? null, c?.args ?? null, resourceSignature(c)])
      : [];
  return canonicalJson([part(spec?.initContainers), part(spec?.containers)]);
}

/**
 * Whether a pod runs the given pod template: the same containers and init containers (names, images, commands,
 * arguments, requests and limits by value, in order), and every label and annotation of the template on the pod with
 * the same value. Other fields are not compared: the API server defaults them on the pod (pull policy, termination
 * paths, protocols, field-reference API versions).
 */
export function podMatchesTemplate(pod: WirePod | undefined, template: WirePodTemplateSpec | undefined): boolean {
  if (containerSignature(pod?.spec) !== containerSignature(template?.spec)) return false;
  for (const field of ['labels', 'annotations'] as const) {
    const wanted = template?.metadata?.[field] ?? {};
    const has = pod?.metadata?.[field] ?? {};
    for (const key of Object.keys(wanted)) if (has[key] !== wanted[key]) return false;
  }
  return true;
}

/** The status of a node's `Ready` condition (`True` when the node reports no conditions). */
export function nodeReadyStatus(node: WireNode | undefined): string {
  const ready = Array.isArray(node?.status?.conditions)
    ? node.status.conditions.find((c: WireCondition | undefined) => c?.type === 'Ready')
    : undefined;
  return typeof ready?.status === 'string' ? ready.status : 'True';
}

export function isTerminal(pod: WirePod | undefined): boolean {
  const phase = pod?.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

function bareTemplate(ds: WireDaemonSet): WirePodTemplateSpec {
  return { metadata: { ...(ds?.spec?.template?.metadata ?? {}), namespace: namespaceOf(ds) }, spec: ds?.spec?.template?.spec ?? {} };
}

/** Whether a surge pod fits next to the old pod (its requests and host ports still held). */
export function surgeFit(
  ds: WireDaemonSet,
  oldTemplate: WirePodTemplateSpec | undefined,
  node: WireNode | undefined,
  nodePods: readonly WirePod[],
  hasOwnPodListed: boolean,
): { reason: string; detail: string } | undefined {
  const existing = [...nodePods];
  if (!hasOwnPodListed) {
    existing.push({
      metadata: { namespace: namespaceOf(ds), name: `${nameOf(ds)}-old` },
      spec: { ...(oldTemplate?.spec ?? {}), nodeName: nameOf(node) },
      status: { phase: 'Running' },
    });
  }
  const verdict = checkPodOnNode(bareTemplate(ds), node, existing);
  const failure = [{ reason: verdict.reason, detail: verdict.detail }, ...verdict.alsoFails].find(
    (f) => f.reason === CoverageReason.HOST_PORT || f.reason === CoverageReason.RESOURCES,
  );
  return failure === undefined
    ? undefined
    : {
        reason: failure.reason,
        detail: failure.detail.replace(new RegExp(`pod ${namespaceOf(ds)}/${nameOf(ds)}-old`, 'g'), 'the old pod'),
      };
}
