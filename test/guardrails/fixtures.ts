/**
 * Sample workloads, namespaces and admission requests for evaluating the guardrail policies.
 */

import { Chart, Testing } from 'cdk8s';
import { NodeServiceGuardrails, NodeServiceGuardrailsProps } from '../../src/guardrails';
import { SimRequest } from './admission-simulator';

type Json = any;

/** Namespaces of the sample cluster and their labels. */
export const NAMESPACES: Record<string, Record<string, string>> = {
  'team-a': { team: 'a' },
  // A lookalike trust label value: only "true" counts.
  'team-b': { 'node-services.cdk8s.io/trusted': 'yes' },
  'node-services': { 'node-services.cdk8s.io/trusted': 'true' },
  'kube-system': {},
};

/** Users of the sample cluster. */
export const USERS = {
  tenant: { username: 'alice@example.com', groups: ['team-a', 'system:authenticated'] },
  platform: { username: 'bob@example.com', groups: ['platform-admins', 'system:authenticated'] },
  argocd: {
    username: 'system:serviceaccount:argocd:argocd-application-controller',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:argocd', 'system:authenticated'],
  },
  noGroups: { username: 'carol@example.com', groups: [] as string[] },
  daemonSetController: {
    username: 'system:serviceaccount:kube-system:daemon-set-controller',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  },
};

/** The guardrail props the evaluation corpus is written against. */
export const CORPUS_PROPS: NodeServiceGuardrailsProps = {
  contact: '#platform-team',
  platformGroups: ['platform-admins'],
  platformUsers: ['system:serviceaccount:argocd:argocd-application-controller'],
  registryAllowlist: ['registry.example.com', 'ghcr.io/example-org', 'docker.io/bitnami'],
  hostPathAllowlist: ['/var/log', '/var/lib/kubelet/pods', '/run/containerd/containerd.sock'],
};

/** Synthesizes the guardrails for `props` (in a chart with a namespace, which must not leak onto them). */
export function synthGuardrails(props: NodeServiceGuardrailsProps = CORPUS_PROPS): Json[] {
  const chart = new Chart(Testing.app(), 'guardrails', { namespace: 'node-services' });
  new NodeServiceGuardrails(chart, 'guardrails', props);
  return Testing.synth(chart);
}

/** A container. */
export function container(name: string, extra: Json = {}): Json {
  return { name, image: 'registry.example.com/agents/agent:1.4.2', ...extra };
}

/** A pod spec with one container named `agent`, merged with `extra`. */
export function podSpec(extra: Json = {}): Json {
  return { containers: [container('agent')], ...extra };
}

/** A DaemonSet. */
export function daemonSet(name: string, namespace: string, spec: Json, labels: Json = { app: name }): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace, labels },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec },
    },
  };
}

/** A Pod. */
export function pod(name: string, namespace: string, spec: Json, metadata: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, ...metadata }, spec };
}

/** A Namespace. */
export function namespace(name: string, labels?: Record<string, string>): Json {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } };
}

/** The workload kinds with a pod template: resource, API group, and where the pod template is. */
export const WORKLOAD_KINDS: Record<string, { group: string; resource: string; templatePath: string[] }> = {
  Deployment: { group: 'apps', resource: 'deployments', templatePath: ['spec', 'template'] },
  StatefulSet: { group: 'apps', resource: 'statefulsets', templatePath: ['spec', 'template'] },
  DaemonSet: { group: 'apps', resource: 'daemonsets', templatePath: ['spec', 'template'] },
  ReplicaSet: { group: 'apps', resource: 'replicasets', templatePath: ['spec', 'template'] },
  Job: { group: 'batch', resource: 'jobs', templatePath: ['spec', 'template'] },
  CronJob: { group: 'batch', resource: 'cronjobs', templatePath: ['spec', 'jobTemplate', 'spec', 'template'] },
  ReplicationController: { group: '', resource: 'replicationcontrollers', templatePath: ['spec', 'template'] },
};

/** A workload of `kind` whose pod template has `spec` (and `templateMetadata`). */
export function workload(kind: string, name: string, namespace: string, spec: Json, templateMetadata: Json = {}): Json {
  const template = { metadata: { labels: { app: name }, ...templateMetadata }, spec };
  const selector = kind === 'ReplicationController' ? { app: name } : { matchLabels: { app: name } };
  const body: Json =
    kind === 'CronJob'
      ? { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { ...template, spec: { restartPolicy: 'OnFailure', ...spec } } } } }
      : kind === 'Job'
        ? { template: { ...template, spec: { restartPolicy: 'Never', ...spec } } }
        : { selector, template, ...(kind === 'StatefulSet' ? { serviceName: name } : {}) };
  return {
    apiVersion: WORKLOAD_KINDS[kind].group ? `${WORKLOAD_KINDS[kind].group}/v1` : 'v1',
    kind,
    metadata: { name, namespace },
    spec: body,
  };
}

/** CREATE (or UPDATE with `old`) of any workload or Pod. */
export function workloadRequest(obj: Json, user = USERS.tenant, old: Json | null = null): SimRequest {
  if (obj.kind === 'Pod') return podRequest(obj, user, old);
  const { group, resource } = WORKLOAD_KINDS[obj.kind];
  const ns = obj.metadata.namespace;
  return {
    operation: old ? 'UPDATE' : 'CREATE',
    resource: { group, version: 'v1', resource },
    kind: { group, version: 'v1', kind: obj.kind },
    namespace: ns,
    namespaceLabels: NAMESPACES[ns],
    object: obj,
    oldObject: old,
    user,
  };
}

const DAEMONSETS = { group: 'apps', version: 'v1', resource: 'daemonsets' };
const PODS = { group: '', version: 'v1', resource: 'pods' };

/** CREATE (or UPDATE with `old`) of a DaemonSet. */
export function daemonSetRequest(
  ds: Json,
  user = USERS.tenant,
  old: Json | null = null,
  operation: SimRequest['operation'] = old ? 'UPDATE' : 'CREATE',
): SimRequest {
  const ns = ds.metadata.namespace;
  return {
    operation,
    resource: DAEMONSETS,
    kind: { group: 'apps', version: 'v1', kind: 'DaemonSet' },
    namespace: ns,
    namespaceLabels: NAMESPACES[ns],
    object: operation === 'DELETE' ? null : ds,
    oldObject: old,
    user,
  };
}

/** CREATE (or UPDATE with `old`) of a Pod, optionally through a subresource. */
export function podRequest(p: Json, user = USERS.tenant, old: Json | null = null, subResource?: string): SimRequest {
  const ns = p.metadata.namespace;
  return {
    operation: old ? 'UPDATE' : 'CREATE',
    resource: PODS,
    subResource,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: ns,
    namespaceLabels: NAMESPACES[ns],
    object: p,
    oldObject: old,
    user,
  };
}

/** CREATE (or UPDATE with `old`) of a Namespace, optionally through a subresource (`status`, `finalize`). */
export function namespaceRequest(obj: Json, user = USERS.tenant, old: Json | null = null, subResource?: string): SimRequest {
  return {
    operation: old ? 'UPDATE' : 'CREATE',
    resource: { group: '', version: 'v1', resource: 'namespaces' },
    subResource,
    kind: { group: '', version: 'v1', kind: 'Namespace' },
    object: obj,
    oldObject: old,
    user,
  };
}

/** `kubectl debug`: the pod with one more ephemeral container, through the `ephemeralcontainers` subresource. */
export function debugRequest(p: Json, ephemeral: Json, user = USERS.tenant): SimRequest {
  const updated = { ...p, spec: { ...p.spec, ephemeralContainers: [...(p.spec.ephemeralContainers ?? []), ephemeral] } };
  return podRequest(updated, user, p, 'ephemeralcontainers');
}

/** A digest. */
export const DIGEST = 'sha256:' + 'ab'.repeat(32);
