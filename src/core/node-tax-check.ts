/**
 * The app-wide node-tax check at synth: for every declared node pool with known allocatable, the node services that
 * land there (the coverage engine's controller verdict on the pool's synthetic node, so only services that really
 * land count) must fit its allocatable together, and its budget when it has one.
 */

import { IConstruct } from 'constructs';
import { compileNode, compileWorkload, describeShares, evaluate, nodeTax } from '../coverage/on-demand';
import type { ServiceRequests } from '../coverage/node-tax';
import { CANARY_LABEL_ANNOTATION } from '../day2/objects';
import { ownValue } from '../k8s/json';
import { NodePool } from './node-pool';

/** The canary's node label (`key=value` annotation) of a DaemonSet manifest, if it is a canary. */
function canaryLabelOf(manifest: any): [string, string] | undefined {
  const text = manifest?.metadata?.annotations?.[CANARY_LABEL_ANNOTATION];
  const m = typeof text === 'string' ? /^([^=]+)=(.*)$/.exec(text) : null;
  return m ? [m[1], m[2]] : undefined;
}

function withLabel(node: any, [key, value]: [string, string]): any {
  return { ...node, metadata: { ...node.metadata, labels: { ...node.metadata.labels, [key]: value } } };
}

/** A node service as the check sees it. */
interface TaxedService {
  /** `namespace/name`. */
  readonly name: string;
  /** The pools it declares it covers. */
  readonly pools: readonly NodePool[];
  /** Its DaemonSet manifests (the stable one, and the canary's when it has one). */
  readonly manifests: () => any[];
}

const SERVICES = new WeakMap<IConstruct, TaxedService[]>();

/**
 * Registers a node service with its app's node-tax check (the check is added to the app on first use).
 * @internal
 */
export function registerNodeTax(scope: IConstruct, service: TaxedService): void {
  const root = scope.node.root;
  let services = SERVICES.get(root);
  if (services === undefined) {
    const list: TaxedService[] = [];
    SERVICES.set(root, (services = list));
    root.node.addValidation({ validate: () => nodeTaxErrors(list) });
  }
  services.push(service);
}

/** One error per declared pool whose node services together exceed its allocatable or its budget. */
function nodeTaxErrors(services: readonly TaxedService[]): string[] {
  const pools = new Map<string, NodePool>();
  for (const s of services) for (const p of s.pools) if (!pools.has(p.name)) pools.set(p.name, p);
  // Without a pool of known allocatable there is nothing to check: render and compile nothing.
  if (![...pools.values()].some((p) => p.allocatable !== undefined)) return [];
  const manifests = services.map((s) => ({
    name: s.name,
    halves: s.manifests().map((m) => {
      const workload = compileWorkload(m);
      return { workload, requests: workload.requests, canaryLabel: canaryLabelOf(m) };
    }),
  }));
  const errors: string[] = [];
  for (const pool of pools.values()) {
    if (pool.allocatable === undefined) continue;
    const node = pool.toNode();
    const compiled = compileNode(node);
    if (compiled.allocatable === undefined) continue;
    // A canary runs on the pool's nodes that carry its label (the stable half on the others): both scenarios count.
    const labelled = new Map<string, ReturnType<typeof compileNode> | undefined>();
    const canaryNode = (label: [string, string]) => {
      const key = label.join('=');
      if (!labelled.has(key)) {
        const own = ownValue(pool.labels, label[0]);
        labelled.set(key, own !== undefined && own !== label[1] ? undefined : compileNode(withLabel(node, label)));
      }
      return labelled.get(key);
    };
    const lands = (h: { workload: ReturnType<typeof compileWorkload>; canaryLabel?: [string, string] }) => {
      if (evaluate(h.workload, compiled).desired) return true;
      if (h.canaryLabel === undefined) return false;
      const onCanaryNode = canaryNode(h.canaryLabel);
      return onCanaryNode !== undefined && evaluate(h.workload, onCanaryNode).desired;
    };
    const landing: ServiceRequests[] = [];
    for (const s of manifests) {
      const landed = s.halves.filter(lands);
      if (landed.length === 0) continue;
      landing.push({
        name: s.name,
        cpu: landed.reduce((m, h) => Math.max(m, h.requests.cpu), 0),
        memory: landed.reduce((m, h) => Math.max(m, h.requests.memory), 0),
      });
    }
    const tax = nodeTax(landing, compiled.allocatable, compiled.allocatablePods, pool.budget);
    const over = [...tax.overAllocatable, ...tax.overBudget];
    if (over.length === 0) continue;
    errors.push(
      `node tax: the node services landing on node pool "${pool.name}" request more than it can give: ${over.join('; ')}. ` +
        `Services there: ${describeShares(tax.services)}. Fix: lower their requests, give the pool larger nodes (allocatable), ` +
        `keep some services off the pool${tax.overBudget.length > 0 ? ', or raise the budget' : ''}`,
    );
  }
  return errors;
}
