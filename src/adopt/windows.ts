/**
 * Windows DaemonSets: a pod whose containers all run as Windows HostProcess containers maps to the library's
 * Windows-only service (`windows: { reason, runAsUserName }`); a Windows pod of ordinary (non-HostProcess) Windows
 * containers has no form in the library, and the import says so instead of building a Linux pod and a verdict on it.
 */

import { asArray, asObject, isObject } from '../k8s/json';
import { InputObject } from '../day2/objects';
import { lit, obj, prop, Property } from './model';

/** What makes a pod a Windows pod, read from the input. */
interface WindowsPod {
  /** Whether every container runs as a HostProcess container (set on the pod, or on each container). */
  readonly hostProcess: boolean;
  /** The field that makes it HostProcess (for the reason). */
  readonly field: string;
  /** The Windows user, when the input names one (on the pod, or the same on every container). */
  readonly runAsUserName?: string;
}

function windowsOptions(securityContext: unknown): Record<string, any> {
  return asObject(asObject(securityContext).windowsOptions);
}

/** The Windows pod `pod` is (`spec.os.name: windows`, or HostProcess containers), or `undefined` for a Linux pod. */
export function windowsPodOf(pod: Record<string, any>): WindowsPod | undefined {
  const own = windowsOptions(pod.securityContext);
  const containers = [...asArray(pod.initContainers), ...asArray(pod.containers)].filter(isObject);
  const theirs = containers.map((c) => windowsOptions(c.securityContext));
  const onPod = own.hostProcess === true && theirs.every((w) => w.hostProcess !== false);
  const onEach = containers.length > 0 && theirs.every((w) => w.hostProcess === true);
  const users = [...new Set(theirs.map((w) => w.runAsUserName))];
  const user = typeof own.runAsUserName === 'string' ? own.runAsUserName : users.length === 1 ? users[0] : undefined;
  const anyHostProcess = own.hostProcess === true || theirs.some((w) => w.hostProcess === true);
  if (asObject(pod.os).name !== 'windows' && !anyHostProcess) return undefined;
  return {
    hostProcess: onPod || onEach,
    field: onPod
      ? 'spec.template.spec.securityContext.windowsOptions.hostProcess'
      : 'spec.template.spec.containers[*].securityContext.windowsOptions.hostProcess',
    ...(typeof user === 'string' ? { runAsUserName: user } : {}),
  };
}

/** The `windows` prop of a HostProcess pod, with the reason recording where it came from and a comment for the reviewer. */
export function windowsProp(win: WindowsPod | undefined, file: string): Property | undefined {
  if (win === undefined || !win.hostProcess) return undefined;
  return prop(
    'windows',
    obj([
      prop('reason', lit(`imported from ${file}: ${win.field} is true`)),
      prop('runAsUserName', win.runAsUserName !== undefined ? lit(win.runAsUserName) : undefined),
    ]),
    'REVIEW: the input runs every container as a Windows HostProcess container (the Windows equivalent of privileged); confirm it needs to.',
  );
}

/** What the import cannot express about the Windows DaemonSets of `daemonSets`: Windows pods that are not HostProcess. */
export function windowsProblems(daemonSets: readonly InputObject[]): string[] {
  return daemonSets.flatMap(({ object, file }) => {
    const ds = asObject(object);
    const win = windowsPodOf(asObject(asObject(asObject(ds.spec).template).spec));
    if (win === undefined || win.hostProcess) return [];
    const meta = asObject(ds.metadata);
    return [
      `DaemonSet ${String(meta.namespace ?? 'default')}/${String(meta.name)} (${file ?? '-'}) runs Windows containers that are not ` +
        'HostProcess containers (spec.os.name windows without windowsOptions.hostProcess on every container): the library ' +
        'builds Windows pods only as HostProcess pods (NodeService windows, Variant.windows), so the generated module cannot ' +
        'build this pod as it is; keep this DaemonSet as it is, or make every container HostProcess and import it again',
    ];
  });
}
