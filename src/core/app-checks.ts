/**
 * Problems no single construct can see, checked when the App is synthesized: two objects with the same kind, namespace
 * and name; `controlPlane` contradicted by the pools; a canary that changes nothing; a PriorityClass that is neither
 * built in nor defined in the App. Errors fail synthesis with the construct path; warnings join the policy summary.
 */

import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { checkPodOnNode } from '../coverage/on-demand';
import { BUILT_IN_PRIORITY_CLASSES } from '../k8s';
import { surgeWithHostPorts } from '../policy/rules/surge-with-host-ports';
import { NodeServiceChecks, reportAtSynthByOwner, synthesisOf } from '../policy/synth';
import { describeSurgeConflict, SurgeConflict, surgeConflict } from '../coverage/surge';
import { isZeroIntOrPercent } from '../k8s/intstr';
import { isClusterScoped } from '../k8s/namespaces';
import { NodePool } from './node-pool';

/** What the checks need of a node service. @internal */
export interface ServiceFacts {
  readonly construct: IConstruct;
  readonly controlPlane: boolean;
  readonly pools: NodePool[];
  readonly priorityClassName?: string;
  /** The stable DaemonSet. */
  readonly daemonSet: ApiObject;
  /** Whether a canary is configured and changes nothing but the canary label. */
  readonly idleCanary: boolean;
  /** The variants (as written, e.g. `variants[0] ("arm64")`) whose pods are the default DaemonSet's. */
  readonly idleVariants: string[];
  /**
   * The service has a NetworkPolicy but pods of these DaemonSets use the host network (which NetworkPolicy does not
   * govern); `true` when every DaemonSet's pods do.
   */
  readonly hostNetworkPolicy?: boolean | string[];
  /** Every DaemonSet of the service (stable, canary, variants). */
  readonly daemonSets?: readonly ApiObject[];
  /** The update strategy the service declares (its DaemonSets are rendered for the surge check only when it surges). */
  readonly updateStrategy?: { readonly type?: string; readonly rollingUpdate?: { readonly maxSurge?: number | string } };
}

function identity(o: ApiObject): string {
  const ns = isClusterScoped(o.kind) ? '' : (o.metadata.namespace ?? '');
  return `${o.kind} ${ns ? `${ns}/` : ''}${o.name}`;
}

/** The construct an object belongs to for messages: the wrapper of a `Resource`, else the object. */
function ownerPath(o: ApiObject): string {
  const scope = o.node.scope;
  return o.node.id === 'Resource' && scope ? scope.node.path : o.node.path;
}

/** What the checks of every service read of the whole App: its ApiObjects by identity and its PriorityClasses. */
interface AppIndex {
  readonly byIdentity: ReadonlyMap<string, readonly ApiObject[]>;
  readonly priorityClasses: ReadonlySet<string>;
}

/** The index of the synthesis in progress, per App root (one walk of the tree serves every service's checks). */
const INDEXES = new WeakMap<IConstruct, { readonly synthesis: object; readonly index: AppIndex }>();

function buildIndex(root: IConstruct): AppIndex {
  const byIdentity = new Map<string, ApiObject[]>();
  const priorityClasses = new Set<string>();
  for (const c of root.node.findAll()) {
    if (!ApiObject.isApiObject(c)) continue;
    const id = identity(c);
    const same = byIdentity.get(id);
    if (same) same.push(c);
    else byIdentity.set(id, [c]);
    if (c.kind === 'PriorityClass') priorityClasses.add(c.name);
  }
  return { byIdentity, priorityClasses };
}

/**
 * The index of the App of `root`: built once per synthesis (the tree does not change within one; `synthesis` is its
 * identity), afresh on every call outside one.
 */
function appIndex(root: IConstruct, synthesis: object | undefined): AppIndex {
  if (synthesis === undefined) return buildIndex(root);
  const cached = INDEXES.get(root);
  if (cached?.synthesis === synthesis) return cached.index;
  const index = buildIndex(root);
  INDEXES.set(root, { synthesis, index });
  return index;
}

/** The node services whose checks are registered: each clash between two of them is reported once, by one of them. */
const SERVICES = new WeakSet<IConstruct>();

/** The node service `o` belongs to, if any (the nearest one among its scopes). */
function serviceOf(o: IConstruct): IConstruct | undefined {
  return [...o.node.scopes].reverse().find((c) => SERVICES.has(c));
}

/**
 * Objects of `service` that another construct of the App also defines (same kind, namespace and name): one message
 * per other construct, naming both and every object they share. A clash between two node services is reported by the
 * one whose path sorts last (the first is named in its message), so it is reported once.
 */
function duplicates(service: IConstruct, index: AppIndex): string[] {
  const mine = service.node.findAll().filter(ApiObject.isApiObject);
  const shared = new Map<string, string[]>();
  for (const o of mine) {
    const id = identity(o);
    for (const other of index.byIdentity.get(id) ?? []) {
      if (other === o || mine.includes(other)) continue;
      const owner = serviceOf(other);
      if (owner !== undefined && owner.node.path > service.node.path) continue;
      const where = owner?.node.path ?? ownerPath(other);
      const ids = shared.get(where) ?? [];
      if (!ids.includes(id)) ids.push(id);
      shared.set(where, ids);
    }
  }
  return [...shared].map(
    ([where, ids]) =>
      `duplicate object${ids.length === 1 ? '' : 's'}: ${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'} also defined by ${where}. Fix: give one of the services another name (or instance and name), or put it in another namespace`,
  );
}

/** Whether the service's pods would run on a control-plane node of the App's pools. */
function controlPlaneContradiction(facts: ServiceFacts): string | undefined {
  if (!facts.controlPlane || facts.pools.length === 0) return undefined;
  const verdict = checkPodOnNode(facts.daemonSet.toJson(), NodePool.controlPlane().toNode());
  if (verdict.desired) return undefined;
  return `controlPlane: true has no effect: the pods still stay off control-plane nodes (${verdict.reason}: ${verdict.detail}). Fix: add NodePool.controlPlane() to pools, or drop controlPlane`;
}

/**
 * A surge rollout with host ports or the host network can only stall: the new pod cannot run next to the old one
 * (the same condition `node-services plan` reports as stuck). One error per DaemonSet of the service.
 */
function surgeDeadlocks(facts: ServiceFacts): string[] {
  const out: string[] = [];
  for (const ds of facts.daemonSets ?? [facts.daemonSet]) {
    const conflict = surgeDeadlock(facts, ds);
    if (conflict === undefined) continue;
    out.push(
      `surge-deadlock: DaemonSet ${ds.metadata.namespace ?? 'default'}/${ds.name} surges (maxSurge ${conflict.maxSurge}) with ${describeSurgeConflict(conflict)}: ` +
        `the new pod cannot run next to the old one on its node, so the rollout stalls on the first node (node-services plan reports it stuck). ` +
        `Fix: roll out with Rollout.maxUnavailable(1) or Rollout.maxUnavailablePercent(10) instead of Rollout.surge`,
    );
  }
  return out;
}

/** The collision of `ds`'s surge rollout when the service declares a surge (only then is `ds` rendered for it). */
function surgeDeadlock(facts: ServiceFacts, ds: ApiObject): SurgeConflict | undefined {
  const strategy = facts.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate' || isZeroIntOrPercent(strategy?.rollingUpdate?.maxSurge)) return undefined;
  return surgeConflict(ds.toJson());
}

/**
 * The service's surge-deadlock error replaces the finding of `surge-with-host-ports` (the same condition) on each of
 * its DaemonSets, so synthesis reports the deadlock once; a surge the service does not declare (a JSON patch) is
 * still reported by the rule.
 */
function reportSurgeOnce(facts: ServiceFacts): void {
  for (const ds of facts.daemonSets ?? [facts.daemonSet]) {
    reportAtSynthByOwner(ds, surgeWithHostPorts.id, () => surgeDeadlock(facts, ds) !== undefined);
  }
}

/** The errors of a service's checks in the synthesis in progress (cdk8s validates more than once per synthesis). */
const RESULTS = new WeakMap<ServiceFacts, { readonly synthesis: object; readonly errors: readonly string[] }>();

/**
 * Registers the checks of one service; they run at every synthesis, once (the tree does not change within one: the
 * later validations of the same synthesis return the first one's errors, and its warnings are already recorded).
 * @internal
 */
export function checkAtSynth(facts: ServiceFacts): void {
  SERVICES.add(facts.construct);
  reportSurgeOnce(facts);
  facts.construct.node.addValidation({
    validate: () => {
      const synthesis = synthesisOf(facts.construct);
      const cached = RESULTS.get(facts);
      if (synthesis !== undefined && cached?.synthesis === synthesis) return [...cached.errors];
      const errors = serviceErrors(facts, NodeServiceChecks.of(facts.construct));
      if (synthesis !== undefined) RESULTS.set(facts, { synthesis, errors: [...errors] });
      return errors;
    },
  });
}

/** The errors of one service's checks, its warnings handed to `checks`. */
function serviceErrors(facts: ServiceFacts, checks: NodeServiceChecks): string[] {
  const index = appIndex(facts.construct.node.root, checks._synthesis);
  const errors = duplicates(facts.construct, index);
  const contradiction = controlPlaneContradiction(facts);
  if (contradiction) errors.push(contradiction);
  errors.push(...surgeDeadlocks(facts));
  const path = facts.construct.node.path;
  if (facts.idleCanary) {
    checks._warn(
      `canary-changes-nothing: [${path}] the canary runs the same pods as the stable DaemonSet (set image, images, args, env, mounts or version)`,
    );
  }
  for (const variant of facts.idleVariants) {
    checks._warn(
      `variant-changes-nothing: [${path}] ${variant} runs the same pods as the default DaemonSet on its nodes (set image, images, args, env, mounts or resources to what differs there, or drop the variant)`,
    );
  }
  if (facts.hostNetworkPolicy) {
    const which = Array.isArray(facts.hostNetworkPolicy) ? ` of DaemonSet ${facts.hostNetworkPolicy.join(', ')}` : '';
    checks._warn(
      `network-policy-host-network: [${path}] the pods${which} use the host network, and NetworkPolicy does not apply to host-network pods: the NetworkPolicy does not isolate them (restrict access with host firewall rules, or bind the ports to 127.0.0.1)`,
    );
  }
  const pc = facts.priorityClassName;
  if (pc !== undefined && !BUILT_IN_PRIORITY_CLASSES.includes(pc) && !index.priorityClasses.has(pc)) {
    checks._warn(
      `priority-class-unknown: [${path}] priorityClassName '${pc}' is neither built in (${BUILT_IN_PRIORITY_CLASSES.join(', ')}) nor defined in the App; pods stay unscheduled if the cluster lacks it`,
    );
  }
  return errors;
}
