/**
 * Container rendering as small renderers, one per part of a Kubernetes container (ports, environment, resources,
 * security context, mounts, probes). Each checks its part of a {@link ContainerSpec} with the `k8s/` grammar, records
 * problems under the field as written, and returns the Kubernetes shape. Inputs have passed the shape check.
 */

import { k8s } from 'cdk8s-plus-28';
import { Wire } from '../wire';
import {
  capabilityError,
  configMapNameError,
  envFieldPathError,
  envFromPrefixError,
  envNameError,
  hostPathError,
  int32Error,
  portNameError,
  portNumberError,
  quantityError,
  reasonError,
  resourceRequirementsProblems,
  secretNameError,
  volumeNameError,
  setOwn,
} from '../../k8s';
import { describeHostPathAllowlist, isHostPathAllowed, KindProfile, NodeServiceKind } from '../../policy/kinds';
import { ContainerSpec, Probe, Protocol, Resources } from '../container';
import { ProblemCollector } from '../../k8s/problems';
import { configSourceProblem } from '../config-hash';
import { HostPath, MountPropagation } from '../host-path';

/** Default resources of a container when none are given. */
const DEFAULT_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '256Mi' };

/** What every renderer of one pod shares. */
export interface PodContext {
  readonly kind: NodeServiceKind;
  readonly profile: KindProfile;
  readonly hostNetwork: boolean;
  readonly problems: ProblemCollector;
  /** Volumes by name, with the identity of their source and the field that declared them first. */
  readonly volumes: Map<string, { readonly volume: Wire<k8s.Volume>; readonly identity: string; readonly field: string }>;
}

/** Renders the ports, checking names, numbers and the host-network rule. Returns the names for probe references. */
export function renderPorts(c: ContainerSpec, field: string, ctx: PodContext): { ports: Wire<k8s.ContainerPort>[]; names: Set<string> } {
  const { problems } = ctx;
  const names = new Set<string>();
  const ports = (c.ports ?? []).map((p, i) => {
    const pf = `${field}.ports[${i}]`;
    problems.check(
      `${pf}.name`,
      p.name,
      portNameError(p.name),
      'use at most 15 lower-case letters, digits or single dashes, e.g. "metrics"',
    );
    if (names.has(p.name)) problems.add(`${pf}.name`, p.name, 'is used twice in this container', 'give each port a unique name');
    names.add(p.name);
    problems.check(`${pf}.containerPort`, p.containerPort, portNumberError(p.containerPort), 'use a port number from 1 to 65535');
    let hostPort = p.hostPort;
    if (hostPort !== undefined) {
      problems.check(`${pf}.hostPort`, hostPort, portNumberError(hostPort), 'use a port number from 1 to 65535, or omit hostPort');
    }
    if (ctx.hostNetwork) {
      if (hostPort !== undefined && hostPort !== p.containerPort) {
        problems.add(
          `${pf}.hostPort`,
          hostPort,
          `must equal containerPort ${p.containerPort} with hostNetwork (the pod binds the node's port directly)`,
          'drop hostPort or make it equal to containerPort',
        );
      }
      hostPort = p.containerPort;
    }
    return {
      name: p.name,
      containerPort: p.containerPort,
      protocol: p.protocol ?? Protocol.TCP,
      ...(hostPort !== undefined ? { hostPort } : {}),
    };
  });
  return { ports, names };
}

const ENV_NAME_FIX = 'use letters, digits, "_", "-" or "." and do not start with a digit';

/** Renders `env`, `fieldEnv` and `envFrom`. */
export function renderEnv(
  c: ContainerSpec,
  field: string,
  problems: ProblemCollector,
): { env: Wire<k8s.EnvVar>[]; envFrom: Wire<k8s.EnvFromSource>[] } {
  const env: Wire<k8s.EnvVar>[] = [];
  for (const [name, value] of Object.entries(c.env ?? {})) {
    problems.check(`${field}.env["${name}"]`, name, envNameError(name), ENV_NAME_FIX);
    env.push({ name, value });
  }
  for (const [name, fieldPath] of Object.entries(c.fieldEnv ?? {})) {
    const ff = `${field}.fieldEnv["${name}"]`;
    problems.check(ff, name, envNameError(name), ENV_NAME_FIX);
    problems.check(ff, fieldPath, envFieldPathError(fieldPath), 'use an EnvField value such as EnvField.NODE_NAME');
    if (c.env && name in c.env) problems.add(ff, name, 'is also set in env', 'set each variable once');
    env.push({ name, valueFrom: { fieldRef: { fieldPath } } });
  }
  const envFrom = (c.envFrom ?? []).map((e, i) => {
    const ef = `${field}.envFrom[${i}]`;
    const spec = e._spec;
    const nameError = spec.configMapRef ? configMapNameError(e.name) : secretNameError(e.name);
    problems.check(
      `${ef}.name`,
      e.name,
      nameError,
      `use the ${spec.configMapRef ? 'ConfigMap' : 'Secret'} name (lower-case, e.g. "agent-config")`,
    );
    problems.check(
      `${ef}.prefix`,
      spec.prefix,
      envFromPrefixError(spec.prefix),
      'use a prefix such as "APP_" (letters, digits, "_", "-", ".")',
    );
    const kindProblem = configSourceProblem(e._config);
    if (kindProblem) problems.add(ef, e.name, kindProblem, `use EnvSource.from${e._config!.kind}Object for a ${e._config!.kind}`);
    return spec as Wire<k8s.EnvFromSource>;
  });
  return { env, envFrom };
}

/** The fields of {@link Resources} by the Kubernetes resource they set. */
const RESOURCE_FIELDS: Array<[keyof Resources, 'requests' | 'limits', string]> = [
  ['cpuRequest', 'requests', 'cpu'],
  ['memoryRequest', 'requests', 'memory'],
  ['ephemeralStorageRequest', 'requests', 'ephemeral-storage'],
  ['cpuLimit', 'limits', 'cpu'],
  ['memoryLimit', 'limits', 'memory'],
  ['ephemeralStorageLimit', 'limits', 'ephemeral-storage'],
];

/** The fields every `resources` must give (a node agent without a memory limit can take a node's memory). */
const REQUIRED_RESOURCES: ReadonlyArray<keyof Resources> = ['cpuRequest', 'memoryRequest', 'memoryLimit'];

/** Renders `resources` (extended resources get equal request and limit, as the API requires). */
export function renderResources(c: ContainerSpec, field: string, problems: ProblemCollector): Wire<k8s.ResourceRequirements> {
  const r = c.resources ?? DEFAULT_RESOURCES;
  const rf = `${field}.resources`;
  const requests: { [k: string]: string } = {};
  const limits: { [k: string]: string } = {};
  const fieldOf = new Map<string, { readonly field: string; readonly value: unknown }>();
  for (const [prop, map, resource] of RESOURCE_FIELDS) {
    const value = r[prop] as string | undefined;
    if (value === undefined && REQUIRED_RESOURCES.includes(prop))
      problems.add(`${rf}.${prop}`, value, 'is required', `give a Kubernetes quantity such as '${DEFAULT_RESOURCES[prop]}'`);
    if (value === undefined) continue;
    (map === 'requests' ? requests : limits)[resource] = value;
    fieldOf.set(`${map}['${resource}']`, { field: `${rf}.${prop}`, value });
  }
  for (const [name, value] of Object.entries(r.extended ?? {})) {
    // Own properties whatever the name (`__proto__` too), so the grammar check below sees every one.
    setOwn(requests, name, value);
    setOwn(limits, name, value);
    const at = { field: `${rf}.extended["${name}"]`, value };
    fieldOf.set(`requests['${name}']`, at);
    fieldOf.set(`limits['${name}']`, at);
  }
  for (const p of resourceRequirementsProblems(requests, limits)) {
    const at = fieldOf.get(p.field) ?? { field: `${rf}.extended`, value: r.extended };
    problems.add(at.field, at.value, p.message, resourceFix(p.message));
  }
  return { requests, limits };
}

function resourceFix(message: string): string {
  if (message.includes('resource name')) return "use a resource name such as 'nvidia.com/gpu' (a DNS subdomain prefix and a name)";
  if (message.includes('above its limit')) return 'lower the request or raise the limit';
  if (message.includes('equal')) return 'give extended resources the same request and limit';
  return "use a Kubernetes quantity such as '100m', '128Mi' or '1' (whole numbers for extended resources)";
}

/** Checks the privilege and capabilities of a container against the kind; returns the capabilities to add. */
export function checkPrivilege(c: ContainerSpec, field: string, ctx: PodContext): string[] {
  const { problems, profile, kind } = ctx;
  if (c.privileged === true) {
    problems.check(
      `${field}.privilegedReason`,
      c.privilegedReason,
      reasonError(c.privilegedReason),
      'say why the container must be privileged (privilegedReason), or grant named capabilities instead',
    );
    if (!profile.privilegedAllowed) {
      problems.add(
        `${field}.privileged`,
        true,
        `a ${kind} must not be privileged`,
        'grant the named capabilities it needs instead, or build it with the generic NodeService if privilege is really intended',
      );
    }
  }
  const caps = c.capabilities ?? [];
  caps.forEach((cap, i) => {
    const cf = `${field}.capabilities[${i}]`;
    const err = capabilityError(cap);
    if (err) {
      problems.add(cf, cap, err, 'use a Linux capability name without the CAP_ prefix, such as "NET_ADMIN"');
    } else if (profile.capabilities && !profile.capabilities.includes(cap)) {
      problems.add(
        cf,
        cap,
        `is not on the ${kind} capability allowlist (${profile.capabilities.join(', ') || 'none'})`,
        'drop it, or build the service with the generic NodeService (and a suppression with a reason) if it is really needed',
      );
    }
  });
  return [...caps];
}

/** Renders the security context of a container. */
export function renderSecurityContext(
  c: ContainerSpec,
  field: string,
  caps: string[],
  problems: ProblemCollector,
): Wire<k8s.SecurityContext> {
  for (const prop of ['runAsUser', 'runAsGroup'] as const) {
    if (c[prop] !== undefined)
      problems.check(
        `${field}.${prop}`,
        c[prop],
        int32Error(c[prop]),
        `use a ${prop === 'runAsUser' ? 'user' : 'group'} ID from 0 to 2147483647`,
      );
  }
  if (c.runAsNonRoot === true && c.runAsUser === 0) {
    problems.add(`${field}.runAsNonRoot`, true, 'contradicts runAsUser 0', 'drop runAsNonRoot or run as a non-zero user');
  }
  const seccomp = c.seccompProfile;
  if (seccomp?.type === 'Unconfined') {
    problems.check(
      `${field}.seccompProfile.reason`,
      seccomp.reason,
      reasonError(seccomp.reason),
      'say why no syscall filter can work, or use SeccompProfile.localhost(profile) with the extra syscalls',
    );
  }
  if (seccomp?.type === 'Localhost') {
    const profile = seccomp.localhostProfile ?? '';
    if (profile === '' || profile.startsWith('/') || profile.split('/').includes('..')) {
      problems.add(
        `${field}.seccompProfile`,
        profile,
        "must be a path relative to the kubelet's seccomp directory, without '..'",
        'use a path such as "profiles/agent.json"',
      );
    }
  }
  const privileged = c.privileged === true;
  const runAsNonRoot = c.runAsNonRoot ?? (c.runAsUser !== undefined && c.runAsUser !== 0 ? true : undefined);
  return {
    privileged,
    allowPrivilegeEscalation: privileged,
    readOnlyRootFilesystem: c.readOnlyRootFilesystem ?? true,
    ...(c.runAsUser !== undefined ? { runAsUser: c.runAsUser } : {}),
    ...(c.runAsGroup !== undefined ? { runAsGroup: c.runAsGroup } : {}),
    ...(runAsNonRoot !== undefined ? { runAsNonRoot } : {}),
    capabilities: { drop: ['ALL'], ...(caps.length > 0 ? { add: caps } : {}) },
    seccompProfile: seccomp?.localhostProfile
      ? { type: seccomp.type, localhostProfile: seccomp.localhostProfile }
      : { type: seccomp?.type ?? 'RuntimeDefault' },
  };
}

/** Registers a pod volume; the same name may only be reused for the same source. */
function addVolume(ctx: PodContext, name: string, volume: Wire<k8s.Volume>, identity: string, field: string): void {
  ctx.problems.check(
    `${field}.volumeName`,
    name,
    volumeNameError(name),
    'give the mount a short lower-case volumeName (at most 63 characters)',
  );
  const existing = ctx.volumes.get(name);
  if (existing && existing.identity !== identity) {
    ctx.problems.add(
      `${field}.volumeName`,
      name,
      `is already used by ${existing.field} for a different source`,
      'give one of the mounts another volumeName',
    );
  } else if (!existing) {
    ctx.volumes.set(name, { volume, identity, field });
  }
}

/** Checks one host path against the path grammar, the reason rule and the kind's allowlist. */
function checkHostPath(h: HostPath, hf: string, privileged: boolean, ctx: PodContext): void {
  const { problems, profile, kind } = ctx;
  const pathProblem = hostPathError(h.path);
  problems.check(`${hf}.path`, h.path, pathProblem, 'use an absolute, normalized host path such as "/var/log"');
  if (h.isWritable) {
    problems.check(
      `${hf}.reason`,
      h.reason,
      reasonError(h.reason),
      'say why the service must write to the host, e.g. HostPath.writable(path, { reason: "keeps read positions across restarts" })',
    );
  }
  if (!pathProblem && !isHostPathAllowed(profile, h.path, h.isWritable)) {
    problems.add(
      `${hf}.path`,
      h.path,
      `is not on the ${kind} host-path allowlist for ${h.isWritable ? 'writable' : 'read-only'} mounts (allowed: ${describeHostPathAllowlist(profile)})`,
      'use an allowed path, or build the service with the generic NodeService if this host access is really intended',
    );
  }
  if (h.propagation === MountPropagation.BIDIRECTIONAL && !privileged) {
    problems.add(
      `${hf}.propagation`,
      h.propagation,
      'Bidirectional propagation requires a privileged container (the API server rejects it otherwise)',
      'use HostToContainer, or make the container privileged with a reason',
    );
  }
}

/** Checks the object a ConfigMap or Secret mount names, and its sub-path. */
function checkMountSource(m: NonNullable<ContainerSpec['mounts']>[number], mf: string, problems: ProblemCollector): void {
  const s = m._source;
  if (s.configMap)
    problems.check(
      `${mf}.configMap`,
      s.configMap.name,
      configMapNameError(s.configMap.name),
      'use the ConfigMap name (lower-case, e.g. "agent-config")',
    );
  if (s.secret)
    problems.check(
      `${mf}.secret`,
      s.secret.secretName,
      secretNameError(s.secret.secretName),
      'use the Secret name (lower-case, e.g. "agent-tls")',
    );
  const kindProblem = configSourceProblem(m._config);
  if (kindProblem) problems.add(mf, m.volumeName, kindProblem, `use Mount.from${m._config!.kind}Object for a ${m._config!.kind}`);
  if (s.emptyDir?.sizeLimit !== undefined)
    problems.check(`${mf}.sizeLimit`, s.emptyDir.sizeLimit, quantityError(s.emptyDir.sizeLimit), "use a quantity such as '64Mi'");
  if (m.subPath !== undefined && (m.subPath.startsWith('/') || m.subPath.split('/').includes('..'))) {
    problems.add(`${mf}.subPath`, m.subPath, "must be a relative path without '..'", 'name a key or directory inside the volume');
  }
}

/** Renders the host-path and pod-local mounts of a container, registering their volumes. */
export function renderMounts(c: ContainerSpec, field: string, ctx: PodContext): Wire<k8s.VolumeMount>[] {
  const { problems } = ctx;
  const mounts: Wire<k8s.VolumeMount>[] = [];
  const paths = new Set<string>();
  const mountPath = (mf: string, path: string): void => {
    if (!path.startsWith('/')) problems.add(`${mf}.mountPath`, path, 'must be an absolute path', 'start the mount path with /');
    if (paths.has(path)) problems.add(`${mf}.mountPath`, path, 'is mounted twice in this container', 'mount each path once');
    paths.add(path);
  };
  (c.hostPaths ?? []).forEach((h, i) => {
    const hf = `${field}.hostPaths[${i}]`;
    checkHostPath(h, hf, c.privileged === true, ctx);
    mountPath(hf, h.mountPath);
    addVolume(ctx, h.volumeName, { name: h.volumeName, hostPath: { path: h.path, type: h.type } }, `host:${h.path}:${h.type}`, hf);
    const propagation = h.propagation !== MountPropagation.NONE ? { mountPropagation: h.propagation } : {};
    mounts.push({ name: h.volumeName, mountPath: h.mountPath, readOnly: !h.isWritable, ...propagation });
  });
  (c.mounts ?? []).forEach((m, i) => {
    const mf = `${field}.mounts[${i}]`;
    mountPath(mf, m.mountPath);
    checkMountSource(m, mf, problems);
    const sizeLimit = m._source.emptyDir?.sizeLimit;
    const source = sizeLimit ? { emptyDir: { ...m._source.emptyDir, sizeLimit } } : m._source;
    addVolume(ctx, m.volumeName, { name: m.volumeName, ...source }, JSON.stringify(m._source), mf);
    mounts.push({ name: m.volumeName, mountPath: m.mountPath, readOnly: m.readOnly, ...(m.subPath ? { subPath: m.subPath } : {}) });
  });
  return mounts;
}

const PROBE_MINIMUM: { [k: string]: number } = { initialDelaySeconds: 0, periodSeconds: 1, timeoutSeconds: 1, failureThreshold: 1 };

/** Checks a probe's handler and timings (int32, at least their minimum). */
export function checkProbe(field: string, p: Probe | undefined, portNames: Set<string>, problems: ProblemCollector): void {
  if (!p) return;
  const h = p._handler;
  const port = h.httpGet?.port ?? h.tcpSocket?.port ?? h.grpc?.port;
  if (h.httpGet || h.tcpSocket || h.grpc) {
    const kind = h.httpGet ? 'httpGet' : h.tcpSocket ? 'tcpSocket' : 'grpc';
    if (h.portBy === 'name') {
      if (typeof port !== 'string') {
        problems.add(
          `${field}.port`,
          port,
          'must be a port name',
          `name a declared container port, or use Probe.${kind}OnPort(...) for a port number`,
        );
      } else if (!portNames.has(port)) {
        problems.add(
          `${field}.port`,
          port,
          'names no port of this container',
          `declare a port named "${port}" or use Probe.${kind}OnPort(...) with its number`,
        );
      }
    } else if (typeof port === 'string') {
      problems.add(
        `${field}.port`,
        port,
        'must be a port number',
        kind === 'grpc' ? 'use a port number from 1 to 65535' : `use a port number from 1 to 65535, or Probe.${kind}(...) for a named port`,
      );
    } else {
      problems.check(`${field}.port`, port, portNumberError(port), 'use a port number from 1 to 65535');
    }
  }
  if (h.httpGet && (typeof h.httpGet.path !== 'string' || !h.httpGet.path.startsWith('/'))) {
    problems.add(`${field}.path`, h.httpGet.path, 'must be an absolute URL path', 'start the path with /');
  }
  if (h.httpGet && h.httpGet.host !== undefined && typeof h.httpGet.host !== 'string') {
    problems.add(`${field}.host`, h.httpGet.host, 'must be a string', 'use a host name or IP such as "127.0.0.1"');
  }
  if (
    h.exec &&
    (!Array.isArray(h.exec.command) || h.exec.command.length === 0 || h.exec.command.some((x: unknown) => typeof x !== 'string'))
  ) {
    problems.add(
      `${field}.command`,
      h.exec.command,
      'must be a non-empty list of strings',
      'give the command to run, e.g. ["cat", "/tmp/healthy"]',
    );
  }
  if (h.grpc && h.grpc.service !== undefined && typeof h.grpc.service !== 'string') {
    problems.add(`${field}.service`, h.grpc.service, 'must be a string', 'name the gRPC health service, or omit it');
  }
  for (const [k, v] of Object.entries(p.options)) {
    if (v !== undefined) problems.check(`${field}.${k}`, v, int32Error(v, PROBE_MINIMUM[k] ?? 0), 'use whole seconds (or a count)');
  }
}

/** Renders a probe (timings only when set: the Kubernetes defaults apply otherwise). */
export function renderProbe(p: Probe | undefined): Wire<k8s.Probe> | undefined {
  if (!p) return undefined;
  const h = p._handler;
  const o = p.options;
  const handler = h.httpGet
    ? {
        httpGet: {
          path: h.httpGet.path,
          port: h.httpGet.port,
          scheme: h.httpGet.scheme,
          ...(h.httpGet.host ? { host: h.httpGet.host } : {}),
        },
      }
    : h.tcpSocket
      ? { tcpSocket: { port: h.tcpSocket.port } }
      : h.exec
        ? { exec: { command: h.exec.command } }
        : { grpc: h.grpc };
  const timings: { [k: string]: number } = {};
  for (const k of ['initialDelaySeconds', 'periodSeconds', 'timeoutSeconds', 'failureThreshold'] as const) {
    if (o[k] !== undefined) timings[k] = o[k] as number;
  }
  return { ...handler, ...timings };
}
