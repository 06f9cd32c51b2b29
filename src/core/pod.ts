/**
 * The one place that builds pod templates. Presets and the canary split call it; nobody patches pods afterwards.
 * Every check of the intent happens here, before any object exists, and lands in a {@link ProblemCollector}.
 */

import { k8s } from 'cdk8s-plus-28';
import {
  dns1123LabelError,
  dns1123SubdomainError,
  envVarNameError,
  hostPathError,
  imagePinError,
  labelValueError,
  parseImage,
  parseQuantity,
  portNameError,
  qualifiedNameError,
  quantityError,
} from '../k8s';
import { MIN_REASON_LENGTH } from '../policy/host-access';
import { describeHostPathAllowlist, isHostPathAllowed, KindProfile, NodeServiceKind } from '../policy/kinds';
import { ContainerSpec, ImagePullPolicy, Probe, Protocol, Resources } from './container';
import { ProblemCollector } from './errors';
import { HostPath, MountPropagation } from './host-path';
import { NodeAffinityTerm, NodeRequirement, TaintEffect, Toleration } from './placement';

/** Default resources of a container when none are given. */
const DEFAULT_RESOURCES: Resources = { cpuRequest: '100m', memoryRequest: '128Mi', memoryLimit: '256Mi' };

export { MIN_REASON_LENGTH };

/** Everything the pod builder needs, already defaulted. @internal */
export interface PodIntent {
  readonly kind: NodeServiceKind;
  readonly profile: KindProfile;
  readonly labels: { [key: string]: string };
  readonly annotations: { [key: string]: string };
  readonly containers: ContainerSpec[];
  readonly initContainers: ContainerSpec[];
  readonly hostNetwork: boolean;
  readonly hostPID: boolean;
  readonly dnsPolicy: string;
  readonly nodeSelector: { [key: string]: string };
  readonly affinityTerms: NodeAffinityTerm[];
  readonly tolerations: Toleration[];
  readonly priorityClassName?: string;
  readonly serviceAccountName?: string;
  readonly automountServiceAccountToken: boolean;
  readonly terminationGracePeriodSeconds: number;
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly fsGroup?: number;
}

const CAPABILITY = /^[A-Z][A-Z0-9_]*$/;

function reasonProblem(reason: string | undefined): string | undefined {
  if (reason === undefined || reason === null) return 'no reason given';
  if (typeof reason !== 'string' || reason.trim().length < MIN_REASON_LENGTH) {
    return `the reason must be at least ${MIN_REASON_LENGTH} characters`;
  }
  return undefined;
}

/** Checks a key/value map of labels (or node-selector entries). @internal */
export function checkLabels(field: string, labels: { [key: string]: string } | undefined, problems: ProblemCollector): void {
  for (const [key, value] of Object.entries(labels ?? {})) {
    problems.check(`${field}["${key}"]`, key, qualifiedNameError(key), 'use a label key such as "example.com/team" or "team"');
    problems.check(
      `${field}["${key}"]`,
      value,
      labelValueError(value),
      'use at most 63 characters of [A-Za-z0-9-_.], starting and ending alphanumeric',
    );
  }
}

/** Checks a key/value map of annotations. @internal */
export function checkAnnotations(field: string, annotations: { [key: string]: string } | undefined, problems: ProblemCollector): void {
  for (const [key, value] of Object.entries(annotations ?? {})) {
    problems.check(`${field}["${key}"]`, key, qualifiedNameError(key.toLowerCase()), 'use an annotation key such as "example.com/owner"');
    if (typeof value !== 'string') problems.add(`${field}["${key}"]`, value, 'annotation values must be strings', 'quote the value');
  }
}

/** Checks one toleration. @internal */
function checkToleration(field: string, t: Toleration, problems: ProblemCollector): void {
  if (t.key !== undefined) {
    problems.check(`${field}.key`, t.key, qualifiedNameError(t.key), 'use a taint key such as "nvidia.com/gpu"');
  }
  if (t.operator === 'Equal' && t.value !== undefined) {
    problems.check(`${field}.value`, t.value, labelValueError(t.value), 'use a valid label value');
  }
  if (t.tolerationSeconds !== undefined) {
    if (t.effect !== TaintEffect.NO_EXECUTE) {
      problems.add(
        `${field}.tolerationSeconds`,
        t.tolerationSeconds,
        'tolerationSeconds is only valid with effect NoExecute',
        'set effect: TaintEffect.NO_EXECUTE or drop tolerationSeconds',
      );
    } else if (!Number.isInteger(t.tolerationSeconds) || t.tolerationSeconds < 0) {
      problems.add(`${field}.tolerationSeconds`, t.tolerationSeconds, 'must be a non-negative integer', 'use a whole number of seconds');
    }
  }
}

/** Checks one node requirement. @internal */
function checkRequirement(field: string, r: NodeRequirement, problems: ProblemCollector): void {
  problems.check(`${field}.key`, r.key, qualifiedNameError(r.key), 'use a node label key such as "node.kubernetes.io/instance-type"');
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if (!r.values || r.values.length === 0) {
      problems.add(`${field}.values`, r.values, `${r.operator} needs at least one value`, 'list the label values to match');
    }
    (r.values ?? []).forEach((v, i) => problems.check(`${field}.values[${i}]`, v, labelValueError(v), 'use a valid label value'));
  }
  if ((r.operator === 'Gt' || r.operator === 'Lt') && !(r.values && r.values.length === 1 && /^-?\d+$/.test(r.values[0]))) {
    problems.add(`${field}.values`, r.values, `${r.operator} needs exactly one integer`, 'pass a whole number');
  }
}

function checkResources(field: string, r: Resources, problems: ProblemCollector): void {
  const fix = "use a Kubernetes quantity such as '100m', '0.5', '128Mi' or '1Gi'";
  const pairs: Array<[string, string | undefined]> = [
    ['cpuRequest', r.cpuRequest],
    ['memoryRequest', r.memoryRequest],
    ['memoryLimit', r.memoryLimit],
    ['cpuLimit', r.cpuLimit],
    ['ephemeralStorageRequest', r.ephemeralStorageRequest],
    ['ephemeralStorageLimit', r.ephemeralStorageLimit],
  ];
  for (const [name, value] of pairs) {
    if (value === undefined) {
      if (name === 'cpuRequest' || name === 'memoryRequest' || name === 'memoryLimit') {
        problems.add(`${field}.${name}`, value, 'is required', `set ${name}, e.g. ${name.startsWith('cpu') ? "'100m'" : "'128Mi'"}`);
      }
      continue;
    }
    problems.check(`${field}.${name}`, value, quantityError(value), fix);
  }
  const over = (req: string | undefined, lim: string | undefined, what: string): void => {
    if (req === undefined || lim === undefined) return;
    const a = parseQuantity(req);
    const b = parseQuantity(lim);
    if (a !== undefined && b !== undefined && a > b) {
      problems.add(
        `${field}.${what}Request`,
        req,
        `is above the ${what} limit ${lim} (the API server rejects requests above limits)`,
        `lower the request or raise the limit`,
      );
    }
  };
  over(r.cpuRequest, r.cpuLimit, 'cpu');
  over(r.memoryRequest, r.memoryLimit, 'memory');
  over(r.ephemeralStorageRequest, r.ephemeralStorageLimit, 'ephemeralStorage');
  for (const [name, value] of Object.entries(r.extended ?? {})) {
    problems.check(`${field}.extended["${name}"]`, name, qualifiedNameError(name), 'use a resource name such as "nvidia.com/gpu"');
    problems.check(`${field}.extended["${name}"]`, value, quantityError(value), fix);
  }
}

function renderProbe(p: Probe | undefined): k8s.Probe | undefined {
  if (!p) return undefined;
  const h = p._handler;
  const o = p.options;
  const port = (v: number | string): k8s.IntOrString =>
    typeof v === 'number' ? k8s.IntOrString.fromNumber(v) : k8s.IntOrString.fromString(v);
  return {
    ...(h.httpGet
      ? {
          httpGet: {
            path: h.httpGet.path,
            port: port(h.httpGet.port),
            scheme: h.httpGet.scheme,
            ...(h.httpGet.host ? { host: h.httpGet.host } : {}),
          },
        }
      : {}),
    ...(h.tcpSocket ? { tcpSocket: { port: port(h.tcpSocket.port) } } : {}),
    ...(h.exec ? { exec: { command: h.exec.command } } : {}),
    ...(h.grpc ? { grpc: h.grpc } : {}),
    // Timings are emitted only when set: the Kubernetes defaults (0 s delay, every 10 s, 1 s timeout, 3 failures) apply.
    ...(o.initialDelaySeconds !== undefined ? { initialDelaySeconds: o.initialDelaySeconds } : {}),
    ...(o.periodSeconds !== undefined ? { periodSeconds: o.periodSeconds } : {}),
    ...(o.timeoutSeconds !== undefined ? { timeoutSeconds: o.timeoutSeconds } : {}),
    ...(o.failureThreshold !== undefined ? { failureThreshold: o.failureThreshold } : {}),
  };
}

function checkProbe(field: string, p: Probe | undefined, portNames: Set<string>, problems: ProblemCollector): void {
  if (!p) return;
  const h = p._handler;
  const port = h.httpGet?.port ?? h.tcpSocket?.port ?? h.grpc?.port;
  if (typeof port === 'string' && !portNames.has(port)) {
    problems.add(`${field}.port`, port, 'names no port of this container', `declare a port named "${port}" or use the port number`);
  }
  if (typeof port === 'number' && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    problems.add(`${field}.port`, port, 'must be between 1 and 65535', 'use a valid port number');
  }
  if (h.httpGet && (typeof h.httpGet.path !== 'string' || !h.httpGet.path.startsWith('/'))) {
    problems.add(`${field}.path`, h.httpGet.path, 'must be an absolute URL path', 'start the path with /');
  }
  if (h.exec && (!Array.isArray(h.exec.command) || h.exec.command.length === 0)) {
    problems.add(`${field}.command`, h.exec.command, 'must not be empty', 'give the command to run');
  }
  for (const [k, v] of Object.entries(p.options)) {
    if (
      v !== undefined &&
      (!Number.isInteger(v) || v < (k === 'periodSeconds' || k === 'timeoutSeconds' || k === 'failureThreshold' ? 1 : 0))
    ) {
      problems.add(`${field}.${k}`, v, 'must be a positive whole number', 'use whole seconds (or a count)');
    }
  }
}

interface BuiltVolume {
  readonly volume: k8s.Volume;
  readonly identity: string;
  readonly field: string;
}

/** Builds the pod template for `intent`, recording every problem. Returns undefined if problems were found. @internal */
export function buildPodTemplate(intent: PodIntent, problems: ProblemCollector): k8s.PodTemplateSpec {
  const volumes = new Map<string, BuiltVolume>();
  const containerNames = new Map<string, string>();

  const addVolume = (name: string, volume: k8s.Volume, identity: string, field: string): void => {
    problems.check(`${field}.volumeName`, name, dns1123LabelError(name), 'give the mount a short lower-case volumeName');
    const existing = volumes.get(name);
    if (existing && existing.identity !== identity) {
      problems.add(
        `${field}.volumeName`,
        name,
        `is already used by ${existing.field} for a different source`,
        'give one of the mounts another volumeName',
      );
      return;
    }
    if (!existing) volumes.set(name, { volume, identity, field });
  };

  const renderContainer = (c: ContainerSpec, field: string, isInit: boolean): k8s.Container => {
    problems.check(`${field}.name`, c.name, dns1123LabelError(c.name), 'use a short lower-case name such as "agent"');
    const previous = containerNames.get(c.name);
    if (previous) {
      problems.add(
        `${field}.name`,
        c.name,
        `duplicates ${previous}.name (names must be unique across containers and init containers)`,
        'rename one of the containers',
      );
    } else {
      containerNames.set(c.name, field);
    }
    problems.check(
      `${field}.image`,
      c.image,
      imagePinError(c.image),
      'pin the image with a version tag (e.g. "fluent/fluent-bit:3.1.9") or a digest ("repo@sha256:…")',
    );

    const portNames = new Set<string>();
    const ports: k8s.ContainerPort[] = [];
    (c.ports ?? []).forEach((p, i) => {
      const pf = `${field}.ports[${i}]`;
      problems.check(
        `${pf}.name`,
        p.name,
        portNameError(p.name),
        'use at most 15 lower-case letters, digits or single dashes, e.g. "metrics"',
      );
      if (portNames.has(p.name)) problems.add(`${pf}.name`, p.name, 'is used twice in this container', 'give each port a unique name');
      portNames.add(p.name);
      if (!Number.isInteger(p.containerPort) || p.containerPort < 1 || p.containerPort > 65535) {
        problems.add(`${pf}.containerPort`, p.containerPort, 'must be between 1 and 65535', 'use a valid port number');
      }
      let hostPort = p.hostPort;
      if (hostPort !== undefined && (!Number.isInteger(hostPort) || hostPort < 1 || hostPort > 65535)) {
        problems.add(`${pf}.hostPort`, hostPort, 'must be between 1 and 65535', 'use a valid port number or omit hostPort');
      }
      if (intent.hostNetwork) {
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
      ports.push({
        name: p.name,
        containerPort: p.containerPort,
        protocol: p.protocol ?? Protocol.TCP,
        ...(hostPort !== undefined ? { hostPort } : {}),
      });
    });

    const env: k8s.EnvVar[] = [];
    for (const [name, value] of Object.entries(c.env ?? {})) {
      problems.check(
        `${field}.env["${name}"]`,
        name,
        envVarNameError(name),
        'use letters, digits, "_", "-" or "." and do not start with a digit',
      );
      env.push({ name, value: String(value) });
    }
    for (const [name, fieldPath] of Object.entries(c.fieldEnv ?? {})) {
      problems.check(
        `${field}.fieldEnv["${name}"]`,
        name,
        envVarNameError(name),
        'use letters, digits, "_", "-" or "." and do not start with a digit',
      );
      if (c.env && name in c.env) problems.add(`${field}.fieldEnv["${name}"]`, name, 'is also set in env', 'set each variable once');
      env.push({ name, valueFrom: { fieldRef: { fieldPath } } });
    }

    const resources = c.resources ?? DEFAULT_RESOURCES;
    checkResources(`${field}.resources`, resources, problems);
    const requests: { [k: string]: k8s.Quantity } = {
      cpu: k8s.Quantity.fromString(resources.cpuRequest),
      memory: k8s.Quantity.fromString(resources.memoryRequest),
    };
    const limits: { [k: string]: k8s.Quantity } = { memory: k8s.Quantity.fromString(resources.memoryLimit) };
    if (resources.cpuLimit) limits.cpu = k8s.Quantity.fromString(resources.cpuLimit);
    if (resources.ephemeralStorageRequest) requests['ephemeral-storage'] = k8s.Quantity.fromString(resources.ephemeralStorageRequest);
    if (resources.ephemeralStorageLimit) limits['ephemeral-storage'] = k8s.Quantity.fromString(resources.ephemeralStorageLimit);
    for (const [name, value] of Object.entries(resources.extended ?? {})) {
      requests[name] = k8s.Quantity.fromString(value);
      limits[name] = k8s.Quantity.fromString(value);
    }

    const privileged = c.privileged === true;
    if (privileged) {
      problems.check(
        `${field}.privilegedReason`,
        c.privilegedReason,
        reasonProblem(c.privilegedReason),
        'say why the container must be privileged (privilegedReason), or grant named capabilities instead',
      );
      if (!intent.profile.privilegedAllowed) {
        problems.add(
          `${field}.privileged`,
          true,
          `a ${intent.kind} must not be privileged`,
          'grant the named capabilities it needs instead, or build it with the generic NodeService if privilege is really intended',
        );
      }
    }

    const caps = c.capabilities ?? [];
    caps.forEach((cap, i) => {
      if (typeof cap !== 'string' || !CAPABILITY.test(cap) || cap === 'ALL') {
        problems.add(
          `${field}.capabilities[${i}]`,
          cap,
          'is not a capability name',
          'use an upper-case Linux capability name such as "NET_ADMIN"',
        );
      } else if (cap.startsWith('CAP_')) {
        problems.add(
          `${field}.capabilities[${i}]`,
          cap,
          'must not carry the CAP_ prefix (Kubernetes uses bare names)',
          `use "${cap.slice(4)}"`,
        );
      } else if (intent.profile.capabilities && !intent.profile.capabilities.includes(cap)) {
        problems.add(
          `${field}.capabilities[${i}]`,
          cap,
          `is not on the ${intent.kind} capability allowlist (${intent.profile.capabilities.join(', ') || 'none'})`,
          'drop it, or build the service with the generic NodeService (and a suppression with a reason) if it is really needed',
        );
      }
    });

    const mounts: k8s.VolumeMount[] = [];
    const mountPaths = new Set<string>();
    const addMountPath = (mf: string, mountPath: string): void => {
      if (typeof mountPath !== 'string' || !mountPath.startsWith('/')) {
        problems.add(`${mf}.mountPath`, mountPath, 'must be an absolute path', 'start the mount path with /');
      }
      if (mountPaths.has(mountPath))
        problems.add(`${mf}.mountPath`, mountPath, 'is mounted twice in this container', 'mount each path once');
      mountPaths.add(mountPath);
    };
    (c.hostPaths ?? []).forEach((h: HostPath, i) => {
      const hf = `${field}.hostPaths[${i}]`;
      const pathProblem = hostPathError(h.path);
      problems.check(`${hf}.path`, h.path, pathProblem, 'use an absolute, normalized host path such as "/var/log"');
      if (h.isWritable) {
        problems.check(
          `${hf}.reason`,
          h.reason,
          reasonProblem(h.reason),
          'say why the service must write to the host, e.g. HostPath.writable(path, { reason: "keeps read positions across restarts" })',
        );
      }
      if (!pathProblem && !isHostPathAllowed(intent.profile, h.path, h.isWritable)) {
        problems.add(
          `${hf}.path`,
          h.path,
          `is not on the ${intent.kind} host-path allowlist for ${h.isWritable ? 'writable' : 'read-only'} mounts (allowed: ${describeHostPathAllowlist(intent.profile)})`,
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
      addMountPath(hf, h.mountPath);
      addVolume(h.volumeName, { name: h.volumeName, hostPath: { path: h.path, type: h.type } }, `host:${h.path}:${h.type}`, hf);
      mounts.push({
        name: h.volumeName,
        mountPath: h.mountPath,
        readOnly: !h.isWritable,
        ...(h.propagation !== MountPropagation.NONE ? { mountPropagation: h.propagation } : {}),
      });
    });
    (c.mounts ?? []).forEach((m, i) => {
      const mf = `${field}.mounts[${i}]`;
      addMountPath(mf, m.mountPath);
      const source = m._source.emptyDir?.sizeLimit
        ? { emptyDir: { ...m._source.emptyDir, sizeLimit: k8s.Quantity.fromString(m._source.emptyDir.sizeLimit) } }
        : m._source;
      if (m._source.emptyDir?.sizeLimit) {
        problems.check(
          `${mf}.sizeLimit`,
          m._source.emptyDir.sizeLimit,
          quantityError(m._source.emptyDir.sizeLimit),
          "use a quantity such as '64Mi'",
        );
      }
      addVolume(m.volumeName, { name: m.volumeName, ...source }, JSON.stringify(m._source), mf);
      mounts.push({ name: m.volumeName, mountPath: m.mountPath, readOnly: m.readOnly, ...(m.subPath ? { subPath: m.subPath } : {}) });
    });

    checkProbe(`${field}.readiness`, c.readiness, portNames, problems);
    checkProbe(`${field}.liveness`, c.liveness, portNames, problems);
    checkProbe(`${field}.startup`, c.startup, portNames, problems);
    if (isInit && (c.readiness || c.liveness || c.startup)) {
      problems.add(`${field}`, c.name, 'init containers cannot have probes', 'move the probes to a long-running container');
    }

    if (c.runAsUser !== undefined && (!Number.isInteger(c.runAsUser) || c.runAsUser < 0 || c.runAsUser > 2147483647)) {
      problems.add(`${field}.runAsUser`, c.runAsUser, 'must be an integer between 0 and 2147483647', 'use a valid user ID');
    }
    if (c.runAsGroup !== undefined && (!Number.isInteger(c.runAsGroup) || c.runAsGroup < 0 || c.runAsGroup > 2147483647)) {
      problems.add(`${field}.runAsGroup`, c.runAsGroup, 'must be an integer between 0 and 2147483647', 'use a valid group ID');
    }
    if (c.runAsNonRoot === true && c.runAsUser === 0) {
      problems.add(`${field}.runAsNonRoot`, true, 'contradicts runAsUser 0', 'drop runAsNonRoot or run as a non-zero user');
    }
    const runAsNonRoot = c.runAsNonRoot ?? (c.runAsUser !== undefined && c.runAsUser !== 0 ? true : undefined);

    const securityContext: k8s.SecurityContext = {
      ...(privileged ? { privileged: true, allowPrivilegeEscalation: true } : { privileged: false, allowPrivilegeEscalation: false }),
      readOnlyRootFilesystem: c.readOnlyRootFilesystem ?? true,
      ...(c.runAsUser !== undefined ? { runAsUser: c.runAsUser } : {}),
      ...(c.runAsGroup !== undefined ? { runAsGroup: c.runAsGroup } : {}),
      ...(runAsNonRoot !== undefined ? { runAsNonRoot } : {}),
      capabilities: { drop: ['ALL'], ...(caps.length > 0 ? { add: [...caps] } : {}) },
      seccompProfile: c.seccompProfile?.localhostProfile
        ? { type: c.seccompProfile.type, localhostProfile: c.seccompProfile.localhostProfile }
        : { type: c.seccompProfile?.type ?? 'RuntimeDefault' },
    };
    if (c.seccompProfile?.type === 'Unconfined') {
      problems.check(
        `${field}.seccompProfile.reason`,
        c.seccompProfile.reason,
        reasonProblem(c.seccompProfile.reason),
        'say why no syscall filter can work, or use SeccompProfile.localhost(profile) with the extra syscalls',
      );
    }
    if (c.seccompProfile?.type === 'Localhost') {
      const profile = c.seccompProfile.localhostProfile ?? '';
      if (profile === '' || profile.startsWith('/') || profile.split('/').includes('..')) {
        problems.add(
          `${field}.seccompProfile`,
          profile,
          "must be a path relative to the kubelet's seccomp directory, without '..'",
          'use a path such as "profiles/agent.json"',
        );
      }
    }

    if (c.preStop !== undefined && (!Array.isArray(c.preStop) || c.preStop.length === 0)) {
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
      ...(c.envFrom && c.envFrom.length > 0 ? { envFrom: c.envFrom.map((e) => e._spec) } : {}),
      ...(ports.length > 0 ? { ports } : {}),
      ...(c.readiness ? { readinessProbe: renderProbe(c.readiness) } : {}),
      ...(c.liveness ? { livenessProbe: renderProbe(c.liveness) } : {}),
      ...(c.startup ? { startupProbe: renderProbe(c.startup) } : {}),
      ...(c.preStop ? { lifecycle: { preStop: { exec: { command: [...c.preStop] } } } } : {}),
      resources: { requests, limits },
      securityContext,
      terminationMessagePolicy: 'FallbackToLogsOnError',
      ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
    };
  };

  if (!Array.isArray(intent.containers) || intent.containers.length === 0) {
    problems.add('containers', intent.containers, 'at least one container is required', 'add the agent container');
  }
  const containers = (intent.containers ?? []).map((c, i) => renderContainer(c, `containers[${i}]`, false));
  const initContainers = (intent.initContainers ?? []).map((c, i) => renderContainer(c, `initContainers[${i}]`, true));

  checkLabels('nodeSelector', intent.nodeSelector, problems);
  intent.tolerations.forEach((t, i) => checkToleration(`tolerations[${i}]`, t, problems));
  intent.affinityTerms.forEach((term, i) => {
    if (!term.requirements || term.requirements.length === 0) {
      problems.add(
        `nodeAffinity[${i}]`,
        term.requirements,
        'an empty term matches no node',
        'give the term at least one requirement, or drop it',
      );
    }
    (term.requirements ?? []).forEach((r, j) => checkRequirement(`nodeAffinity[${i}].requirements[${j}]`, r, problems));
  });
  if (intent.priorityClassName !== undefined) {
    problems.check(
      'priorityClassName',
      intent.priorityClassName,
      dns1123SubdomainError(intent.priorityClassName),
      'use a PriorityClass name such as "system-node-critical"',
    );
  }
  if (intent.serviceAccountName !== undefined) {
    problems.check(
      'serviceAccountName',
      intent.serviceAccountName,
      dns1123SubdomainError(intent.serviceAccountName),
      'use a ServiceAccount name',
    );
  }
  if (!Number.isInteger(intent.terminationGracePeriodSeconds) || intent.terminationGracePeriodSeconds < 0) {
    problems.add(
      'terminationGracePeriodSeconds',
      intent.terminationGracePeriodSeconds,
      'must be a non-negative whole number',
      'use whole seconds, e.g. 30',
    );
  }

  const tolerations = dedupe(intent.tolerations).map((t) => t.toJson() as k8s.Toleration);
  const affinity: k8s.Affinity | undefined =
    intent.affinityTerms.length > 0
      ? {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: intent.affinityTerms.map((t) => ({ matchExpressions: (t.requirements ?? []).map((r) => r.toJson()) })),
            },
          },
        }
      : undefined;

  const podSecurityContext: k8s.PodSecurityContext = {
    seccompProfile: { type: 'RuntimeDefault' },
    ...(intent.runAsUser !== undefined ? { runAsUser: intent.runAsUser } : {}),
    ...(intent.runAsGroup !== undefined ? { runAsGroup: intent.runAsGroup } : {}),
    ...(intent.fsGroup !== undefined ? { fsGroup: intent.fsGroup } : {}),
  };

  return {
    metadata: {
      labels: { ...intent.labels },
      ...(Object.keys(intent.annotations).length > 0 ? { annotations: { ...intent.annotations } } : {}),
    },
    spec: {
      ...(intent.serviceAccountName ? { serviceAccountName: intent.serviceAccountName } : {}),
      automountServiceAccountToken: intent.automountServiceAccountToken,
      hostNetwork: intent.hostNetwork,
      hostPid: intent.hostPID,
      dnsPolicy: intent.dnsPolicy,
      enableServiceLinks: false,
      ...(intent.priorityClassName ? { priorityClassName: intent.priorityClassName } : {}),
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: intent.terminationGracePeriodSeconds,
      securityContext: podSecurityContext,
      ...(Object.keys(intent.nodeSelector).length > 0 ? { nodeSelector: { ...intent.nodeSelector } } : {}),
      ...(affinity ? { affinity } : {}),
      ...(tolerations.length > 0 ? { tolerations } : {}),
      ...(initContainers.length > 0 ? { initContainers } : {}),
      containers,
      ...(volumes.size > 0 ? { volumes: [...volumes.values()].map((v) => v.volume) } : {}),
    },
  };
}

function dedupe(tolerations: Toleration[]): Toleration[] {
  const seen = new Set<string>();
  const out: Toleration[] = [];
  for (const t of tolerations) {
    if (seen.has(t.identity)) continue;
    seen.add(t.identity);
    out.push(t);
  }
  return out;
}

/** The version of the first container's image (its tag), when it is a valid label value. @internal */
export function imageVersion(image: string | undefined): string | undefined {
  const parsed = image ? parseImage(image) : undefined;
  const tag = parsed?.tag;
  return tag && !labelValueError(tag) ? tag : undefined;
}
