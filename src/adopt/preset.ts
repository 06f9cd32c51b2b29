/**
 * The presets an imported DaemonSet may be built with, and its NodeService props rewritten as a preset's props: the
 * main container's options lifted to the top, the other containers as `sidecars` / `extraInitContainers`, host paths
 * and capabilities beyond the preset's own as `extraHostPaths` / `extraCapabilities`. What a preset builds by itself is
 * read from the preset (synthesized once with its minimal props), never copied here. Pure given the runtime.
 */

import { asArray, asObject } from '../k8s/json';
import { NodeServiceKind } from '../policy/kinds';
import { parseObjects } from '../manifests/read';
import { AdoptRuntime, synthesizeApp } from './evaluate';
import { arr, call, Expr, lit, obj, ObjectExpr, prop, Property } from './model';

/** A preset an import may choose, with what it needs to be built. */
export interface PresetInfo {
  /** The construct (`LogAgent`). */
  readonly construct: string;
  /** The kind it is. */
  readonly kind: NodeServiceKind;
  /** Props besides `image` the preset requires, for the probe that reads what it builds. */
  readonly required: readonly Property[];
  /** The prop that sets its main container's one port, if any. */
  readonly portProp?: string;
  /** Whether it derives a writable state directory from its name (`stateDir`). */
  readonly stateDir?: boolean;
  /** Props that keep the preset from adding what an input without them did not have. */
  readonly neutral: readonly Property[];
}

const PRESETS: readonly PresetInfo[] = [
  { construct: 'LogAgent', kind: NodeServiceKind.LOG_AGENT, required: [], portProp: 'port', stateDir: true, neutral: [] },
  {
    construct: 'MonitoringAgent',
    kind: NodeServiceKind.MONITORING_AGENT,
    required: [],
    portProp: 'port',
    neutral: [{ key: 'tolerateAllTaints', value: lit(false) }],
  },
  { construct: 'GpuMonitor', kind: NodeServiceKind.GPU_MONITOR, required: [], portProp: 'port', neutral: [] },
  {
    construct: 'CniPlugin',
    kind: NodeServiceKind.CNI_PLUGIN,
    required: [
      { key: 'install', value: obj([prop('command', lit(['install']))]) },
      { key: 'healthPort', value: lit(9099) },
    ],
    portProp: 'healthPort',
    stateDir: true,
    neutral: [],
  },
  {
    construct: 'CsiNode',
    kind: NodeServiceKind.CSI_NODE,
    required: [{ key: 'driverName', value: lit('probe.csi.example.com') }],
    neutral: [],
  },
  { construct: 'SecurityAgent', kind: NodeServiceKind.SECURITY_AGENT, required: [], portProp: 'healthPort', neutral: [] },
];

/** The preset of a kind, if the library has one. */
export function presetOf(kind: NodeServiceKind): PresetInfo | undefined {
  return PRESETS.find((p) => p.kind === kind);
}

/** What a preset builds by itself (its DaemonSet synthesized with minimal props). */
export interface PresetShape {
  /** The DaemonSet's name with the minimal props. */
  readonly name: string;
  /** Its containers' names, the main one first. */
  readonly containers: string[];
  /** Its init containers' names. */
  readonly initContainers: string[];
  /** Whether it runs on the host network / sees the host's processes (presets decide both). */
  readonly hostNetwork: boolean;
  readonly hostPID: boolean;
  /** The host paths of its main container. */
  readonly hostPaths: string[];
  /** The capabilities its main container adds. */
  readonly capabilities: string[];
  /** Whether its main container is privileged (a CSI node driver is). */
  readonly privileged: boolean;
  /** The mount paths of its main container's pod-local volumes (`emptyDir`, ConfigMaps). */
  readonly mounts: string[];
  /** Its main container's port names. */
  readonly ports: string[];
}

const probes = new WeakMap<AdoptRuntime, Map<string, PresetShape>>();

/** What `preset` builds by itself (memoized per runtime). */
export function presetShape(preset: PresetInfo, runtime: AdoptRuntime): PresetShape {
  const cache = probes.get(runtime) ?? new Map<string, PresetShape>();
  probes.set(runtime, cache);
  const known = cache.get(preset.construct);
  if (known !== undefined) return known;
  const module = {
    fileName: 'probe.ts',
    className: 'Probe',
    id: 'probe',
    construct: preset.construct,
    props: obj([prop('image', lit('probe:1')), ...preset.required]),
    objects: [],
    patches: [],
    constants: [],
    doc: [],
  };
  const objects = parseObjects(synthesizeApp({ services: [module], others: [] }, runtime), 'probe').map((o) => asObject(o.object));
  const pod = asObject(asObject(asObject(objects.find((o) => o.kind === 'DaemonSet')?.spec).template).spec);
  const main = asObject(asArray(pod.containers)[0]);
  const volumes = new Map(asArray(pod.volumes).map((v) => [asObject(v).name, asObject(asObject(v).hostPath).path]));
  const names = (list: unknown) => asArray(list).map((c) => String(asObject(c).name));
  const shape: PresetShape = {
    name: String(asObject(objects.find((o) => o.kind === 'DaemonSet')?.metadata).name),
    containers: names(pod.containers),
    initContainers: names(pod.initContainers),
    hostNetwork: pod.hostNetwork === true,
    hostPID: pod.hostPID === true,
    hostPaths: asArray(main.volumeMounts)
      .map((m) => volumes.get(asObject(m).name))
      .filter((p): p is string => typeof p === 'string'),
    capabilities: asArray(asObject(asObject(main.securityContext).capabilities).add).map(String),
    privileged: asObject(main.securityContext).privileged === true,
    mounts: asArray(main.volumeMounts)
      .filter((m) => volumes.get(asObject(m).name) === undefined)
      .map((m) => String(asObject(m).mountPath)),
    ports: asArray(main.ports).map((p) => String(asObject(p).name)),
  };
  cache.set(preset.construct, shape);
  return shape;
}

const list = (names: readonly string[]) => (names.length > 0 ? names.map((n) => `\`${n}\``).join(', ') : 'none');

/** Why `preset` cannot build `ds` as it is, found without building it (names and host namespaces it fixes). */
export function presetMismatch(preset: PresetInfo, shape: PresetShape, ds: unknown): string | undefined {
  const pod = asObject(asObject(asObject(asObject(ds).spec).template).spec);
  const containers = asArray(pod.containers).map((c) => String(asObject(c).name));
  const init = asArray(pod.initContainers).map((c) => String(asObject(c).name));
  const p = preset.construct;
  const missing = shape.containers.filter((n) => !containers.includes(n));
  if (missing.length > 0)
    return `${p} names its containers ${list(shape.containers)}, the input's are ${list(containers)} (a preset has no prop for the names of its own containers)`;
  const missingInit = shape.initContainers.filter((n) => !init.includes(n));
  if (missingInit.length > 0) return `${p} runs the init container(s) ${list(shape.initContainers)}, the input ${list(init)}`;
  if ((pod.hostNetwork === true) !== shape.hostNetwork)
    return `${p} decides hostNetwork itself (${String(shape.hostNetwork)}), the input's is ${String(pod.hostNetwork === true)}`;
  if ((pod.hostPID === true) !== shape.hostPID)
    return `${p} decides hostPID itself (${String(shape.hostPID)}), the input's is ${String(pod.hostPID === true)}`;
  const main = asObject(asArray(pod.containers).find((c) => asObject(c).name === shape.containers[0]));
  const caps = asArray(asObject(asObject(main.securityContext).capabilities).add).map((c) => String(c).replace(/^CAP_/, ''));
  const extra = shape.capabilities.filter((c) => !caps.includes(c));
  if (extra.length > 0) return `${p} adds the capabilities ${list(extra)}, which the input's main container does not have`;
  const ports = asArray(main.ports).map((x) => String(asObject(x).name));
  if (JSON.stringify(ports) !== JSON.stringify(shape.ports))
    return `${p} names its main container's ports ${list(shape.ports)}, the input's are ${list(ports)}`;
  return undefined;
}

/** Service props a preset decides itself (or builds from the containers). */
const PRESET_OWNED = new Set(['kind', 'hostNetwork', 'hostPID', 'dnsPolicy', 'containers', 'initContainers', 'suppressions']);

function find(props: ObjectExpr, key: string): Property | undefined {
  return props.properties.find((p) => p.key === key);
}

function items(expr: Expr | undefined): readonly Expr[] {
  return expr?.type === 'array' ? expr.items : [];
}

function nameOfContainer(c: Expr): string | undefined {
  const name = c.type === 'object' ? find(c, 'name')?.value : undefined;
  return name?.type === 'literal' && typeof name.value === 'string' ? name.value : undefined;
}

/** The path of a `HostPath.readOnly(path, …)` / `HostPath.writable(path, …)` expression. */
function hostPathOf(e: Expr): { path: string; writable: boolean } | undefined {
  if (e.type !== 'call' || e.owner !== 'HostPath' || e.args[0]?.type !== 'literal') return undefined;
  return { path: String(e.args[0].value), writable: e.method === 'writable' };
}

/** The main container's props as the preset's top-level props (or why they cannot be). */
function mainProps(preset: PresetInfo, shape: PresetShape, main: ObjectExpr, file: string, own: readonly string[]): Property[] | string {
  const out: Property[] = [];
  const hostPaths = find(main, 'hostPaths');
  const extraHostPaths: Expr[] = [];
  const comments: (string | undefined)[] = [];
  let stateDir: string | undefined;
  items(hostPaths?.value).forEach((e, i) => {
    const hp = hostPathOf(e);
    if (hp !== undefined && own.includes(hp.path)) return;
    if (hp !== undefined && hp.writable && preset.stateDir && stateDir === undefined) {
      stateDir = hp.path;
      return;
    }
    extraHostPaths.push(e);
    comments.push(hostPaths?.value.type === 'array' ? hostPaths.value.comments?.[i] : undefined);
  });
  if (preset.stateDir && stateDir === undefined) return `${preset.construct} keeps a writable state directory the input does not mount`;
  for (const p of main.properties) {
    if (p.key === 'name' || p.key === 'hostPaths') continue;
    // A preset whose main container is privileged by itself (a CSI node driver) has no prop for it.
    if ((p.key === 'privileged' || p.key === 'privilegedReason') && shape.privileged) continue;
    if (p.key === 'mounts') {
      const kept = items(p.value).filter(
        (m) => !(m.type === 'call' && m.args.some((a) => a.type === 'literal' && shape.mounts.includes(String(a.value)))),
      );
      if (kept.length > 0) out.push({ ...p, value: arr(kept) });
      continue;
    }
    if (p.key === 'ports') {
      const port = items(p.value)[0];
      const containerPort = port?.type === 'object' ? find(port, 'containerPort') : undefined;
      if (preset.portProp !== undefined && containerPort !== undefined) out.push({ key: preset.portProp, value: containerPort.value });
      continue;
    }
    if (p.key === 'capabilities') {
      const caps = items(p.value).length > 0 ? items(p.value) : p.value.type === 'literal' ? asArray(p.value.value).map((v) => lit(v)) : [];
      const extra = caps.map((c) => (c.type === 'literal' ? String(c.value) : '')).filter((c) => !shape.capabilities.includes(c));
      if (extra.length > 0) {
        out.push({ key: 'extraCapabilities', value: lit(extra), comment: p.comment });
        out.push({ key: 'extraCapabilitiesReason', value: lit(`imported from ${file}: the input's main container adds them`) });
      }
      continue;
    }
    out.push(p);
  }
  if (stateDir !== undefined) out.push({ key: 'stateDir', value: lit(stateDir) });
  if (extraHostPaths.length > 0) out.push({ key: 'extraHostPaths', value: arr(extraHostPaths, comments) });
  return out;
}

/** The CSI driver name, read from the plugin directory the input mounts (`/var/lib/kubelet/plugins/<driver>`). */
function driverName(containers: readonly Expr[]): string | undefined {
  for (const c of containers) {
    for (const e of items(c.type === 'object' ? find(c, 'hostPaths')?.value : undefined)) {
      const m = /^\/var\/lib\/kubelet\/plugins\/([a-z0-9][a-z0-9.-]*\.[a-z0-9.-]+)\/?$/.exec(hostPathOf(e)?.path ?? '');
      if (m) return m[1];
    }
  }
  return undefined;
}

/** The options of a CNI installer (`CniInstaller`: the container process options and `image`). */
const INSTALLER_OPTIONS = ['command', 'args', 'workingDir', 'env', 'fieldEnv', 'envFrom', 'mounts', 'resources', 'seccompProfile', 'image'];

/** The preset's own init container (the CNI installer) as its `install` prop; what else differs shows in the check. */
function installProp(init: ObjectExpr): Property {
  return { key: 'install', value: obj(init.properties.filter((p) => INSTALLER_OPTIONS.includes(p.key))) };
}

/** Props that restate a Kubernetes default where a preset would otherwise choose its own. */
function defaultsRestated(props: ObjectExpr, numbers: (name: string, value: number) => Expr): Property[] {
  const out: Property[] = [];
  if (find(props, 'rollout') === undefined) out.push({ key: 'rollout', value: call('Rollout', 'maxUnavailable', lit(1)) });
  if (find(props, 'terminationGracePeriodSeconds') === undefined)
    out.push({ key: 'terminationGracePeriodSeconds', value: numbers('TERMINATION_GRACE_PERIOD_SECONDS', 30) });
  if (find(props, 'nodeAffinity') === undefined) out.push({ key: 'nodeAffinity', value: arr([]) });
  if (find(props, 'apiAccess') === undefined) out.push({ key: 'apiAccess', value: arr([]) });
  out.push({ key: 'includeVirtualNodes', value: lit(true) });
  return out;
}

/**
 * The NodeService props `props` rewritten as the props of `preset`, or why they cannot be. Containers the preset
 * builds itself (a CSI node's registrar and liveness probe) keep only their image; the check shows the rest.
 */
export function presetProps(
  preset: PresetInfo,
  shape: PresetShape,
  props: ObjectExpr,
  file: string,
  numbers: (name: string, value: number) => Expr,
): ObjectExpr | string {
  const containers = items(find(props, 'containers')?.value);
  const init = items(find(props, 'initContainers')?.value);
  const main = containers.find((c) => nameOfContainer(c) === shape.containers[0]);
  if (main === undefined || main.type !== 'object') return `${preset.construct} finds no main container`;
  const special: Property[] = [];
  let ownPaths = shape.hostPaths.filter((p) => !(preset.stateDir && p.includes(`/${shape.name}`)));
  if (preset.kind === NodeServiceKind.CSI_NODE) {
    const driver = driverName(containers);
    if (driver === undefined) return 'CsiNode needs the driver name, and the input mounts no /var/lib/kubelet/plugins/<driver> directory';
    const probeDriver = String(preset.required.map((r) => (r.value.type === 'literal' ? r.value.value : '')).find((v) => v !== ''));
    ownPaths = ownPaths.map((p) => p.split(probeDriver).join(driver));
    special.push({ key: 'driverName', value: lit(driver) });
    const image = (name: string) => {
      const c = containers.find((x) => nameOfContainer(x) === name);
      return c?.type === 'object' ? find(c, 'image')?.value : undefined;
    };
    special.push(
      ...[prop('registrarImage', image(shape.containers[1])), prop('livenessProbeImage', image(shape.containers[2]))].filter(
        (p): p is Property => p !== undefined,
      ),
    );
  }
  const lifted = mainProps(preset, shape, main, file, ownPaths);
  if (typeof lifted === 'string') return lifted;
  const own = new Set(shape.containers);
  const ownInit = new Set(shape.initContainers);
  const sidecars = containers.filter((c) => !own.has(nameOfContainer(c) ?? ''));
  const extraInit = init.filter((c) => !ownInit.has(nameOfContainer(c) ?? ''));
  if (preset.kind === NodeServiceKind.CNI_PLUGIN) {
    const installer = init.find((c) => nameOfContainer(c) === shape.initContainers[0]);
    if (installer?.type === 'object') special.push(installProp(installer));
  }
  return obj([
    ...props.properties.filter((p) => !PRESET_OWNED.has(p.key)),
    ...special,
    ...lifted,
    ...preset.neutral,
    ...defaultsRestated(props, numbers),
    prop('sidecars', sidecars.length > 0 ? arr(sidecars) : undefined),
    prop('extraInitContainers', extraInit.length > 0 ? arr(extraInit) : undefined),
  ]);
}
