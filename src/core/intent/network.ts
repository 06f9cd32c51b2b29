/**
 * Network access: the NetworkPolicy of the pods (ingress to declared ports from checked peers, egress when given) and
 * the node-local Service (the named ports it exposes).
 */

import { k8s } from 'cdk8s-plus-28';
import { cidrError, dns1035LabelError, portNumberError, reasonError } from '../../k8s';
import { ProblemCollector } from '../../k8s/problems';
import { NetworkEgressRule, NetworkIngressRule, NetworkPeer } from '../network-policy';
import type { NodeServiceProps } from '../props';
import { checkLabels } from './maps';

/** The node-local Service of a service. */
export interface LocalServiceIntent {
  readonly name: string;
  readonly ports: k8s.ServicePort[];
}

/** The NetworkPolicy form of a peer, checked: label maps, namespace names, CIDRs. */
function resolvePeer(peer: NetworkPeer, field: string, problems: ProblemCollector): k8s.NetworkPolicyPeer {
  const p = peer._peer ?? {};
  for (const part of ['namespaceSelector', 'podSelector'] as const) {
    if (p[part]) checkLabels(`${field}.${part}`, p[part].matchLabels, problems);
  }
  if (p.ipBlock) {
    problems.check(`${field}.cidr`, p.ipBlock.cidr, cidrError(p.ipBlock.cidr), 'use a CIDR such as "10.0.0.0/8"');
    (p.ipBlock.except ?? []).forEach((e: unknown, i: number) =>
      problems.check(`${field}.except[${i}]`, e, cidrError(e), 'use a CIDR inside the block, such as "10.1.0.0/16"'),
    );
  }
  return p as k8s.NetworkPolicyPeer;
}

/** Resolves `networkPolicy`: ingress rules name declared ports (by number and protocol), peers are checked. */
export function resolveNetworkPolicy(props: NodeServiceProps, problems: ProblemCollector): k8s.NetworkPolicySpec | undefined {
  const o = props.networkPolicy;
  if (!o) return undefined;
  if (o.hostNetworkReason !== undefined) {
    const reason = o.hostNetworkReason;
    problems.check('networkPolicy.hostNetworkReason', reason, reasonError(reason), 'say why the host-network pods need no NetworkPolicy');
  }
  const declared = declaredPorts(props);
  const ingress = (o.ingress ?? []).map((rule, i) => resolveIngressRule(rule, `networkPolicy.ingress[${i}]`, declared, problems));
  const egress = o.egress?.map((rule, i) => resolveEgressRule(rule, `networkPolicy.egress[${i}]`, problems));
  return {
    podSelector: {},
    policyTypes: egress ? ['Ingress', 'Egress'] : ['Ingress'],
    ingress,
    ...(egress ? { egress } : {}),
  };
}

/** An ingress rule: declared ports (by name) from named sources. */
function resolveIngressRule(
  rule: NetworkIngressRule,
  f: string,
  declared: Map<string, k8s.ServicePort>,
  problems: ProblemCollector,
): k8s.NetworkPolicyIngressRule {
  if (rule.ports.length === 0) problems.add(`${f}.ports`, rule.ports, 'names no port', 'name the container ports the sources may reach');
  if (rule.from.length === 0)
    noPeer(`${f}.from`, rule.from, 'source', 'name the sources, e.g. NetworkPeer.namespace("monitoring")', problems);
  const ports = rule.ports.flatMap((name, j) => {
    const port = declared.get(name);
    if (!port) {
      noSuchPort(`${f}.ports[${j}]`, name, declared, problems);
      return [];
    }
    return [{ port: k8s.IntOrString.fromNumber(port.port), protocol: port.protocol ?? 'TCP' }];
  });
  return { ports, from: rule.from.map((peer, j) => resolvePeer(peer, `${f}.from[${j}]`, problems)) };
}

/** An egress rule: named destinations, on the given ports. */
function resolveEgressRule(rule: NetworkEgressRule, f: string, problems: ProblemCollector): k8s.NetworkPolicyEgressRule {
  if (rule.to.length === 0) noPeer(`${f}.to`, rule.to, 'destination', 'name the destinations, or drop the rule', problems);
  (rule.ports ?? []).forEach((p, j) =>
    problems.check(`${f}.ports[${j}].port`, p.port, portNumberError(p.port), 'use a port number from 1 to 65535'),
  );
  return {
    to: rule.to.map((peer, j) => resolvePeer(peer, `${f}.to[${j}]`, problems)),
    ...(rule.ports ? { ports: rule.ports.map((p) => ({ port: k8s.IntOrString.fromNumber(p.port), protocol: p.protocol ?? 'TCP' })) } : {}),
  };
}

/** Records that a rule names no peer: an empty list would admit every one. */
function noPeer(field: string, peers: NetworkPeer[], what: string, fix: string, problems: ProblemCollector): void {
  problems.add(field, peers, `names no ${what} (an empty list would admit every ${what})`, fix);
}

/** Records that `name` (at `field`) names no declared port. */
function noSuchPort(field: string, name: string, declared: Map<string, k8s.ServicePort>, problems: ProblemCollector): void {
  problems.add(
    field,
    name,
    'names no port of the containers',
    `use one of ${[...declared.keys()].map((n) => `"${n}"`).join(', ') || 'the declared port names'}`,
  );
}

/** The named container ports of the long-running containers, first declaration of each name. */
function declaredPorts(props: NodeServiceProps): Map<string, k8s.ServicePort> {
  const declared = new Map<string, k8s.ServicePort>();
  for (const c of props.containers) {
    for (const p of c.ports ?? []) {
      if (typeof p?.name === 'string' && !declared.has(p.name)) {
        const protocol = p.protocol && p.protocol !== 'TCP' ? { protocol: p.protocol } : {};
        declared.set(p.name, { name: p.name, port: p.containerPort, targetPort: k8s.IntOrString.fromString(p.name), ...protocol });
      }
    }
  }
  return declared;
}

/** Resolves `localService`: its name and the named ports of the long-running containers it exposes. */
export function resolveLocalService(props: NodeServiceProps, problems: ProblemCollector): LocalServiceIntent | undefined {
  const o = props.localService;
  if (!o) return undefined;
  const name = o.name ?? props.name;
  if (o.name !== undefined)
    problems.check('localService.name', o.name, dns1035LabelError(o.name), 'use a Service name such as "fluent-bit-local"');
  const declared = declaredPorts(props);
  const wanted = o.portNames ?? [...declared.keys()];
  if (wanted.length === 0)
    problems.add(
      o.portNames ? 'localService.portNames' : 'localService',
      o.portNames ?? {},
      'exposes no port (the containers declare none)',
      'declare a named container port, or drop localService',
    );
  const ports: k8s.ServicePort[] = [];
  wanted.forEach((portName, i) => {
    const port = declared.get(portName);
    if (!port) {
      noSuchPort(`localService.portNames[${i}]`, portName, declared, problems);
    } else if (!ports.includes(port)) {
      ports.push(port);
    }
  });
  return { name, ports };
}
