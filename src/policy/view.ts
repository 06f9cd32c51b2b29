/**
 * Builds the {@link PodView} of a DaemonSet once, so that each rule reads pre-computed containers, volumes and
 * host-path mounts instead of walking the manifest again.
 */

import { containerRole } from '../k8s/container-role';
import { resolveKind } from './kind-inference';
import { KindSource, kindProfile, NodeServiceKind } from './kinds';
import { asArray, asObject, isTrue } from './helpers';
import type { ContainerView, HostPathMountView, HostPathView, PodView } from './types';
import type { WireDaemonSet, WireVolume } from '../k8s/wire';

/** JSON path of a DaemonSet's pod spec (paths below it are written out directly: every segment is an identifier or an index). */
const POD_PATH = 'spec.template.spec';

function containerViews(list: unknown, field: 'containers' | 'initContainers', podHostProcess: boolean): ContainerView[] {
  const init = field === 'initContainers';
  return asArray(list).map((raw, index) => {
    const container = asObject(raw);
    const securityContext = asObject(container.securityContext);
    const privileged = isTrue(securityContext.privileged);
    const ownHostProcess = asObject(securityContext.windowsOptions).hostProcess;
    const hostProcess = isTrue(ownHostProcess) || (podHostProcess && ownHostProcess !== false);
    return {
      container,
      index,
      path: `${POD_PATH}.${field}[${index}]`,
      init,
      sidecar: init && container.restartPolicy === 'Always',
      role: containerRole(container, init),
      name: typeof container.name === 'string' ? container.name : '',
      securityContext,
      privileged,
      hostProcess,
      fullHostAccess: privileged || hostProcess,
      volumeMounts: asArray(container.volumeMounts),
      ports: asArray(container.ports),
    };
  });
}

/** A host path in POSIX form: Windows drive paths lose the drive and use `/`; named pipes have no POSIX form. */
function posixHostPath(path: string): string {
  if (path.startsWith('\\\\.\\pipe\\') || path.startsWith('//./pipe/')) return '';
  const drive = /^[A-Za-z]:[\\/]/.exec(path);
  if (!drive) return path;
  const rest = path.slice(drive[0].length).replace(/\\/g, '/').replace(/\/+$/, '');
  return `/${rest}`;
}

/** Builds the view of one DaemonSet (tolerating missing or malformed fields). */
export function buildPodView(input: unknown): PodView {
  const object = input as WireDaemonSet;
  const metadata = asObject(object?.metadata);
  const annotations = asObject(metadata.annotations);
  const spec = asObject(object?.spec);
  const template = asObject(spec.template);
  const templateLabels = asObject(asObject(template.metadata).labels);
  const pod = asObject(template.spec);
  const podHostProcess = isTrue(asObject(asObject(pod.securityContext).windowsOptions).hostProcess);
  const containers = [
    ...containerViews(pod.containers, 'containers', podHostProcess),
    ...containerViews(pod.initContainers, 'initContainers', podHostProcess),
  ];
  const volumes = asArray(pod.volumes);
  const volumesByName = new Map<string, WireVolume>();
  for (const v of volumes) {
    const name = asObject(v).name;
    if (typeof name === 'string' && !volumesByName.has(name)) volumesByName.set(name, v);
  }

  const hostPaths: HostPathView[] = [];
  volumes.forEach((raw, index) => {
    const volume = asObject(raw);
    if (!('hostPath' in volume)) return;
    const hp = asObject(volume.hostPath);
    const name = typeof volume.name === 'string' ? volume.name : '';
    const mounts: HostPathMountView[] = [];
    for (const c of containers) {
      c.volumeMounts.forEach((m, mi) => {
        const mount = asObject(m);
        if (mount.name === name && name !== '') {
          mounts.push({
            container: c,
            mount,
            path: `${c.path}.volumeMounts[${mi}]`,
            writable: !isTrue(mount.readOnly),
          });
        }
      });
    }
    hostPaths.push({
      volume,
      path: `${POD_PATH}.volumes[${index}]`,
      name,
      hostPath: typeof hp.path === 'string' ? hp.path : '',
      matchPath: typeof hp.path === 'string' ? posixHostPath(hp.path) : '',
      type: typeof hp.type === 'string' ? hp.type : '',
      mounts,
      writable: mounts.some((m) => m.writable),
    });
  });

  const resolved = resolveKind(object);
  const declared = resolved.source === KindSource.ANNOTATION;
  const os = asObject(pod.os).name;
  const windows = os === 'windows' || (os === undefined && asObject(pod.nodeSelector)['kubernetes.io/os'] === 'windows');
  return {
    object,
    metadata,
    annotations,
    spec,
    template,
    templateLabels,
    pod,
    podPath: POD_PATH,
    podSecurityContext: asObject(pod.securityContext),
    containers,
    volumes,
    volumesByName,
    hostPaths,
    kind: resolved.kind,
    kindSource: resolved.source,
    kindEvidence: resolved.evidence,
    kindByImage: resolved.byImage === true,
    profile: kindProfile(declared ? resolved.kind : NodeServiceKind.GENERIC),
    kindProfile: kindProfile(resolved.kind),
    windows,
    osWindows: os === 'windows',
  };
}
