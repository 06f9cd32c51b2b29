/**
 * Pod resource requests as the scheduler's NodeResourcesFit computes them (`resource.PodRequests`), host ports as
 * the NodePorts filter sees them, and node allocatable — all after the API server's Pod defaulting
 * (`SetDefaults_Pod`: requests taken from limits, host-network ports, protocol TCP).
 */

import { qualifiedNameError } from '../k8s/names';
import { scaledQuantity } from './quantity';
import type { WireContainer, WirePodSpec } from '../k8s/wire';

/** Requests (or allocatable) in scheduler units: milli-CPU, bytes, and integer scalar resources. */
export interface ResourceVector {
  /** CPU in milli-units. */
  cpu: number;
  /** Memory in bytes. */
  memory: number;
  /** Ephemeral storage in bytes. */
  ephemeralStorage: number;
  /** Extended, hugepages and other scalar resources by name; `undefined` when there are none. */
  scalars: Map<string, number> | undefined;
}

/** A new empty vector. */
export function emptyVector(): ResourceVector {
  return { cpu: 0, memory: 0, ephemeralStorage: 0, scalars: undefined };
}

const scalarNames = new Map<string, boolean>();

/** Whether the scheduler tracks a resource name as a scalar resource (`schedutil.IsScalarResourceName`). */
function isScalarResource(name: string): boolean {
  let scalar = scalarNames.get(name);
  if (scalar === undefined) {
    if (name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')) scalar = true;
    else if (!name.includes('/')) scalar = false;
    else if (name.includes('kubernetes.io/')) scalar = true;
    // Extended resource: not native and a valid qualified name once prefixed with "requests.".
    else scalar = !name.startsWith('requests.') && qualifiedNameError(`requests.${name}`) === undefined;
    scalarNames.set(name, scalar);
  }
  return scalar;
}

type List = Map<string, number>;

/**
 * Parses a `ResourceList` into scheduler units, keeping only what NodeResourcesFit looks at. Invalid quantities
 * are reported in `warnings` and count as 0.
 */
function parseList(list: { readonly [resource: string]: number | string } | undefined, where: string, warnings: string[]): List {
  const out: List = new Map();
  if (list == null || typeof list !== 'object') return out;
  for (const name of Object.keys(list)) {
    if (name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage' && !isScalarResource(name)) continue;
    const value = scaledQuantity(list[name], name === 'cpu' ? 3 : 0);
    if (value === undefined) {
      warnings.push(
        `${where}.${name} ${JSON.stringify(list[name])} is not a valid non-negative quantity (e.g. '100m', '128Mi'); it counts as 0`,
      );
      continue;
    }
    out.set(name, value);
  }
  return out;
}

/** A container's requests after `SetDefaults_Pod`: every limit without a request becomes the request. */
function containerRequests(container: WireContainer | undefined, where: string, warnings: string[]): List {
  const requests = parseList(container?.resources?.requests, `${where}.resources.requests`, warnings);
  const limits = container?.resources?.limits;
  if (limits && typeof limits === 'object') {
    const fromLimits = parseList(limits, `${where}.resources.limits`, warnings);
    const rawRequests = container.resources.requests ?? {};
    for (const [name, value] of fromLimits) {
      if (!Object.prototype.hasOwnProperty.call(rawRequests, name)) requests.set(name, value);
    }
  }
  return requests;
}

function add(into: List, from: List): void {
  for (const [name, value] of from) into.set(name, (into.get(name) ?? 0) + value);
}

function max(into: List, from: List): void {
  for (const [name, value] of from) {
    const current = into.get(name);
    if (current === undefined || value > current) into.set(name, value);
  }
}

/** Whether an init container is a restartable sidecar (`restartPolicy: Always`). */
export function isSidecar(container: WireContainer | undefined): boolean {
  return container?.restartPolicy === 'Always';
}

/**
 * `resource.PodRequests` for a pod spec: per resource,
 * `max(Σ containers + Σ sidecars, max_i(init_i + Σ sidecars declared before i)) + overhead`.
 * With `sidecars` false (Kubernetes 1.28 defaults: the API server drops `restartPolicy` from init containers) every
 * init container counts as a plain init container.
 */
export function podRequests(spec: WirePodSpec | undefined, sidecars: boolean, where: string, warnings: string[]): ResourceVector {
  const reqs: List = new Map();
  const containers = spec?.containers;
  if (Array.isArray(containers)) {
    for (let i = 0; i < containers.length; i++) add(reqs, containerRequests(containers[i], `${where}.containers[${i}]`, warnings));
  }
  const initContainers = spec?.initContainers;
  if (Array.isArray(initContainers) && initContainers.length > 0) {
    const sidecarSum: List = new Map();
    const initMax: List = new Map();
    for (let i = 0; i < initContainers.length; i++) {
      const c = initContainers[i];
      const own = containerRequests(c, `${where}.initContainers[${i}]`, warnings);
      if (sidecars && isSidecar(c)) {
        add(reqs, own);
        add(sidecarSum, own);
        max(initMax, sidecarSum);
      } else {
        add(own, sidecarSum);
        max(initMax, own);
      }
    }
    max(reqs, initMax);
  }
  if (spec?.overhead != null) add(reqs, parseList(spec.overhead, `${where}.overhead`, warnings));
  return toVector(reqs);
}

/**
 * Node allocatable in scheduler units, plus the pod-count limit. Scalar resources of 0 are left out (absent counts
 * as 0 anyway). Invalid quantities are reported in `warnings` and count as 0.
 */
export function allocatable(
  list: { readonly [resource: string]: number | string },
  where: string,
  warnings: string[],
): { vector: ResourceVector; pods: number } {
  const vector = emptyVector();
  let pods = 0;
  for (const name of Object.keys(list)) {
    const isPods = name === 'pods';
    if (!isPods && name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage' && !isScalarResource(name)) continue;
    const value = scaledQuantity(list[name], name === 'cpu' ? 3 : 0);
    if (value === undefined) {
      warnings.push(`${where}.${name} ${JSON.stringify(list[name])} is not a valid non-negative quantity; it counts as 0`);
      continue;
    }
    if (isPods) pods = value;
    else if (name === 'cpu') vector.cpu = value;
    else if (name === 'memory') vector.memory = value;
    else if (name === 'ephemeral-storage') vector.ephemeralStorage = value;
    else if (value > 0) (vector.scalars ??= new Map()).set(name, value);
  }
  if (vector.scalars !== undefined && vector.scalars.size > 1) vector.scalars = sortedMap(vector.scalars);
  return { vector, pods };
}

function sortedMap(map: Map<string, number>): Map<string, number> {
  return new Map([...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

function toVector(list: List): ResourceVector {
  const v = emptyVector();
  for (const [name, value] of list) {
    if (name === 'cpu') v.cpu = value;
    else if (name === 'memory') v.memory = value;
    else if (name === 'ephemeral-storage') v.ephemeralStorage = value;
    else (v.scalars ??= new Map()).set(name, value);
  }
  if (v.scalars !== undefined && v.scalars.size > 1) v.scalars = sortedMap(v.scalars);
  return v;
}

/** Adds `b` into `a`. */
export function addVector(a: ResourceVector, b: ResourceVector): void {
  a.cpu += b.cpu;
  a.memory += b.memory;
  a.ephemeralStorage += b.ephemeralStorage;
  if (b.scalars) {
    a.scalars ??= new Map();
    for (const [name, value] of b.scalars) a.scalars.set(name, (a.scalars.get(name) ?? 0) + value);
  }
}

/** A host port a pod binds: `(hostIP, protocol, hostPort)` with "" defaulted to `0.0.0.0` and `TCP`. */
export interface HostPort {
  /** Host IP (`0.0.0.0` means every address). */
  readonly ip: string;
  /** Protocol (`TCP`, `UDP`, `SCTP`). */
  readonly protocol: string;
  /** Port number (> 0). */
  readonly port: number;
  /** `protocol/port`, the key conflicts are looked up by. */
  readonly key: string;
}

/**
 * The host ports a pod binds as NodePorts sees them: every container port with `hostPort > 0` after defaulting
 * (`hostNetwork: true` sets `hostPort = containerPort` where it is 0). Sidecar init containers count only when
 * `sidecarPorts` is true (Kubernetes 1.33+).
 */
export function podHostPorts(spec: WirePodSpec | undefined, sidecarPorts: boolean): HostPort[] {
  const out: HostPort[] = [];
  const hostNetwork = spec?.hostNetwork === true;
  collectHostPorts(spec?.containers, false, hostNetwork, out);
  if (sidecarPorts) collectHostPorts(spec?.initContainers, true, hostNetwork, out);
  return out;
}

function collectHostPorts(containers: unknown, sidecarsOnly: boolean, hostNetwork: boolean, out: HostPort[]): void {
  if (!Array.isArray(containers)) return;
  for (const c of containers) {
    if ((sidecarsOnly && !isSidecar(c)) || !Array.isArray(c?.ports)) continue;
    for (const p of c.ports) {
      let port = Number(p?.hostPort ?? 0);
      if (hostNetwork && port === 0) port = Number(p?.containerPort ?? 0);
      if (!Number.isInteger(port) || port <= 0) continue;
      const ip = typeof p?.hostIP === 'string' && p.hostIP.length > 0 ? p.hostIP : '0.0.0.0';
      const protocol = typeof p?.protocol === 'string' && p.protocol.length > 0 ? p.protocol : 'TCP';
      out.push({ ip, protocol, port, key: `${protocol}/${port}` });
    }
  }
}
