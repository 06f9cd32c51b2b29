/**
 * The one place that builds pod templates. Presets and the canary split call it; nobody patches pods afterwards.
 * Every check of the intent happens here, before any object exists, and lands in a {@link ProblemCollector}; the
 * container parts are rendered by the small renderers of `container-render.ts`.
 */

import { k8s } from 'cdk8s-plus-28';
import {
  dns1123LabelError,
  imagePinError,
  int32Error,
  MIN_REASON_LENGTH,
  nodeSelectorRequirementError,
  priorityClassNameError,
  runtimeClassNameError,
  dns1123SubdomainError,
  dnsConfigError,
  isIpAddress,
  tolerationProblems,
} from '../../k8s';
import { parseRequirement } from '../../coverage/selector';
import { CONFIG_HASH_ANNOTATION, ConfigSource, hasConfigHash, lazyConfigHash } from '../config-hash';
import { ContainerSpec, ImagePullPolicy } from '../container';
import {
  checkPrivilege,
  checkProbe,
  PodContext,
  renderEnv,
  renderMounts,
  renderPorts,
  renderProbe,
  renderResources,
  renderSecurityContext,
} from './container-render';
import { ProblemCollector } from '../../k8s/problems';
import { checkLabels } from '../intent/maps';
import type { PodIntent } from '../intent/pod';
import type { DnsConfig } from '../props';
import { Toleration } from '../placement';
import { Wire, WireContainer, WirePodTemplateSpec } from '../wire';

export { MIN_REASON_LENGTH };

/** Renders one container with the small renderers, checking its name (unique in the pod) and image. */
function renderContainer(c: ContainerSpec, field: string, isInit: boolean, ctx: PodContext, names: Map<string, string>): WireContainer {
  const { problems } = ctx;
  problems.check(`${field}.name`, c.name, dns1123LabelError(c.name), 'use a short lower-case name such as "agent"');
  const previous = names.get(c.name);
  if (previous) {
    problems.add(
      `${field}.name`,
      c.name,
      `duplicates ${previous}.name (names must be unique across containers and init containers)`,
      'rename one of the containers',
    );
  } else {
    names.set(c.name, field);
  }
  problems.check(
    `${field}.image`,
    c.image,
    imagePinError(c.image),
    'pin the image with a version tag (e.g. "fluent/fluent-bit:3.1.9") or a digest ("repo@sha256:…")',
  );
  const { ports, names: portNames } = renderPorts(c, field, ctx);
  const { env, envFrom } = renderEnv(c, field, problems);
  const resources = renderResources(c, field, problems);
  const caps = checkPrivilege(c, field, ctx);
  const securityContext = renderSecurityContext(c, field, caps, problems);
  const mounts = renderMounts(c, field, ctx);
  for (const probe of ['readiness', 'liveness', 'startup'] as const) checkProbe(`${field}.${probe}`, c[probe], portNames, problems);
  if (isInit && (c.readiness || c.liveness || c.startup)) {
    problems.add(`${field}`, c.name, 'init containers cannot have probes', 'move the probes to a long-running container');
  }
  if (c.preStop !== undefined && c.preStop.length === 0) {
    problems.add(`${field}.preStop`, c.preStop, 'must be a non-empty command', 'give the command to run before stop');
  }
  return {
    name: c.name,
    image: c.image,
    imagePullPolicy: c.imagePullPolicy ?? ImagePullPolicy.IF_NOT_PRESENT,
    ...(c.command ? { command: [...c.command] } : {}),
    ...(c.args ? { args: [...c.args] } : {}),
    ...(c.workingDir ? { workingDir: c.workingDir } : {}),
    ...(env.length > 0 ? { env } : {}),
    ...(envFrom.length > 0 ? { envFrom } : {}),
    ...(ports.length > 0 ? { ports } : {}),
    ...(c.readiness ? { readinessProbe: renderProbe(c.readiness) } : {}),
    ...(c.liveness ? { livenessProbe: renderProbe(c.liveness) } : {}),
    ...(c.startup ? { startupProbe: renderProbe(c.startup) } : {}),
    ...(c.preStop ? { lifecycle: { preStop: { exec: { command: [...c.preStop] } } } } : {}),
    resources,
    securityContext,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
  };
}

/** Checks the placement of the pod: node selector, tolerations (API grammar) and affinity terms. */
function checkPlacement(intent: PodIntent, problems: ProblemCollector): void {
  checkLabels('nodeSelector', intent.nodeSelector, problems);
  intent.tolerations.forEach((t, i) => {
    for (const p of tolerationProblems(t.toJson()))
      problems.add(`tolerations[${i}].${p.field}`, t[p.field as keyof Toleration], p.message, 'see the Toleration factories');
  });
  intent.affinityTerms.forEach((term, i) => {
    if (term.requirements.length === 0) {
      problems.add(
        `nodeAffinity[${i}]`,
        term.requirements,
        'an empty term matches no node',
        'give the term at least one requirement, or drop it',
      );
    }
    term.requirements.forEach((r, j) => {
      // what the API server refuses, and what it accepts but never matches (a Gt/Lt threshold that is no integer)
      const err = nodeSelectorRequirementError(r.toJson(), false) ?? neverMatches(r.toJson());
      if (err === undefined) return;
      const part = err.startsWith('key') ? 'key' : err.includes('is not one of') ? 'operator' : 'values';
      problems.add(
        `${intent.requirementFields.get(r) ?? `nodeAffinity[${i}].requirements[${j}]`}.${part}`,
        r[part],
        err,
        'use NodeRequirement.in/notIn with at least one valid value, exists/doesNotExist, or gt/lt with a whole number',
      );
    });
  });
}

/** Why the scheduler would never match a requirement the API server accepts (`Gt`/`Lt` on a value that is no integer), or `undefined`. */
function neverMatches(requirement: unknown): string | undefined {
  const parsed = parseRequirement(requirement, 0);
  return Array.isArray(parsed) ? `never matches a node: ${parsed.join('; ').replace(/^matchExpressions\[0\]\.?/, '')}` : undefined;
}

/** Checks the pod-level fields that are not placement. */
function checkPodFields(intent: PodIntent, problems: ProblemCollector): void {
  if (intent.priorityClassName !== undefined) {
    problems.check(
      'priorityClassName',
      intent.priorityClassName,
      priorityClassNameError(intent.priorityClassName),
      'use a PriorityClass name such as "system-node-critical"',
    );
  }
  if (!Number.isInteger(intent.terminationGracePeriodSeconds) || intent.terminationGracePeriodSeconds < 0) {
    problems.add(
      'terminationGracePeriodSeconds',
      intent.terminationGracePeriodSeconds,
      'must be a non-negative whole number',
      'use whole seconds, e.g. 30',
    );
  } else if (intent.terminationGracePeriodSeconds > Number.MAX_SAFE_INTEGER) {
    problems.add(
      'terminationGracePeriodSeconds',
      intent.terminationGracePeriodSeconds,
      `must be at most ${Number.MAX_SAFE_INTEGER} (larger whole numbers lose precision and overflow the API's int64)`,
      'use whole seconds, e.g. 30',
    );
  }
  if (intent.runtimeClassName !== undefined)
    problems.check(
      'runtimeClassName',
      intent.runtimeClassName,
      runtimeClassNameError(intent.runtimeClassName),
      'use a RuntimeClass name such as "nvidia"',
    );
  intent.hostAliases.forEach((a, i) => {
    if (!isIpAddress(a.ip)) problems.add(`hostAliases[${i}].ip`, a.ip, 'must be an IP address', 'use an IPv4 or IPv6 address');
    if (a.hostnames.length === 0)
      problems.add(`hostAliases[${i}].hostnames`, a.hostnames, 'must name at least one host', 'add a host name');
    a.hostnames.forEach((h, j) =>
      problems.check(
        `hostAliases[${i}].hostnames[${j}]`,
        h,
        dns1123SubdomainError(h),
        'use a lower-case host name such as "registry.internal"',
      ),
    );
  });
  problems.check(
    'dnsConfig',
    intent.dnsConfig,
    dnsConfigError(intent.dnsPolicy, intent.dnsConfig),
    intent.dnsPolicy === 'None' ? 'give at least one nameserver IP address' : 'see DnsConfig',
  );
  if (intent.dnsConfig?.options)
    for (const name of Object.keys(intent.dnsConfig.options))
      if (name === '') problems.add('dnsConfig.options', name, 'option names must not be empty', 'use an option such as "ndots"');
  for (const prop of ['runAsUser', 'runAsGroup', 'fsGroup'] as const) {
    if (intent[prop] !== undefined) problems.check(prop, intent[prop], int32Error(intent[prop]), 'use an ID from 0 to 2147483647');
  }
}

/** Builds the pod template for `intent`, recording every problem. */
export function buildPodTemplate(intent: PodIntent, problems: ProblemCollector): WirePodTemplateSpec {
  const ctx: PodContext = { kind: intent.kind, profile: intent.profile, hostNetwork: intent.hostNetwork, problems, volumes: new Map() };
  const names = new Map<string, string>();
  if (intent.containers.length === 0)
    problems.add('containers', intent.containers, 'at least one container is required', 'add the agent container');
  // A Windows HostProcess pod sets its security on the pod (windowsOptions); the Linux-only container fields go.
  const forOs = (c: WireContainer): WireContainer => {
    if (!intent.windows) return c;
    const { securityContext: _linuxOnly, ...rest } = c;
    return rest;
  };
  const containers = intent.containers.map((c, i) => forOs(renderContainer(c, `containers[${i}]`, false, ctx, names)));
  const initContainers = intent.initContainers.map((c, i) => forOs(renderContainer(c, `initContainers[${i}]`, true, ctx, names)));
  checkPlacement(intent, problems);
  checkPodFields(intent, problems);
  const tolerations = dedupe(intent.tolerations).map((t) => t.toJson() as Wire<k8s.Toleration>);
  const nodeSelectorTerms = intent.affinityTerms.map((t) => ({ matchExpressions: t.requirements.map((r) => r.toJson()) }));
  const affinity =
    nodeSelectorTerms.length > 0 ? { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } } : undefined;
  const securityContext: Wire<k8s.PodSecurityContext> = intent.windows
    ? { windowsOptions: { hostProcess: true, runAsUserName: intent.windows.runAsUserName } }
    : {
        seccompProfile: { type: 'RuntimeDefault' },
        ...(intent.runAsUser !== undefined ? { runAsUser: intent.runAsUser } : {}),
        ...(intent.runAsGroup !== undefined ? { runAsGroup: intent.runAsGroup } : {}),
        ...(intent.fsGroup !== undefined ? { fsGroup: intent.fsGroup } : {}),
      };
  const sources: ConfigSource[] = [...intent.containers, ...intent.initContainers]
    .flatMap((c) => [...(c.mounts ?? []).map((m) => m._config), ...(c.envFrom ?? []).map((e) => e._config)])
    .filter((s): s is ConfigSource => s !== undefined);
  const annotations: { [key: string]: string } = { ...intent.annotations };
  if (hasConfigHash(intent.configHash, sources)) annotations[CONFIG_HASH_ANNOTATION] = lazyConfigHash(intent.configHash, sources);
  return {
    metadata: {
      labels: { ...intent.labels },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: {
      ...(intent.windows ? { os: { name: 'windows' } } : {}),
      ...(intent.serviceAccountName ? { serviceAccountName: intent.serviceAccountName } : {}),
      automountServiceAccountToken: intent.automountServiceAccountToken,
      hostNetwork: intent.hostNetwork,
      hostPID: intent.hostPID,
      dnsPolicy: intent.dnsPolicy,
      enableServiceLinks: false,
      ...(intent.priorityClassName ? { priorityClassName: intent.priorityClassName } : {}),
      ...(intent.runtimeClassName ? { runtimeClassName: intent.runtimeClassName } : {}),
      ...(intent.hostAliases.length > 0 ? { hostAliases: intent.hostAliases.map((a) => ({ ip: a.ip, hostnames: [...a.hostnames] })) } : {}),
      ...(intent.dnsConfig ? { dnsConfig: renderDnsConfig(intent.dnsConfig) } : {}),
      ...(intent.imagePullSecrets.length > 0 ? { imagePullSecrets: intent.imagePullSecrets.map((name) => ({ name })) } : {}),
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: intent.terminationGracePeriodSeconds,
      securityContext,
      ...(Object.keys(intent.nodeSelector).length > 0 ? { nodeSelector: { ...intent.nodeSelector } } : {}),
      ...(affinity ? { affinity } : {}),
      ...(tolerations.length > 0 ? { tolerations } : {}),
      ...(initContainers.length > 0 ? { initContainers } : {}),
      containers,
      ...(ctx.volumes.size > 0 ? { volumes: [...ctx.volumes.values()].map((v) => v.volume) } : {}),
    },
  };
}

function renderDnsConfig(c: DnsConfig): Wire<k8s.PodDnsConfig> {
  const options = Object.entries(c.options ?? {}).map(([name, value]) => (value === '' ? { name } : { name, value }));
  return {
    ...(c.nameservers ? { nameservers: [...c.nameservers] } : {}),
    ...(c.searches ? { searches: [...c.searches] } : {}),
    ...(options.length > 0 ? { options } : {}),
  };
}

/** The tolerations without repeats (the first of each identity kept), each identity serialized once. */
function dedupe(tolerations: Toleration[]): Toleration[] {
  const seen = new Set<string>();
  return tolerations.filter((t) => {
    const identity = t.identity;
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
}
