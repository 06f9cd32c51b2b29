/**
 * Windows HostProcess pods, one code path for both forms: a Windows-only service (`windows`) and a service's Windows
 * variant (`Variant.windows`). What makes a pod one (the OS, the node selector, the host network, the Windows user),
 * the reason recorded for it, and the boundary of a Windows-only service: every prop that has no meaning on Windows,
 * refused with the field as written.
 */

import { reasonError, windowsUserNameError } from '../../k8s';
import { APPARMOR_ANNOTATION_PREFIX } from '../../k8s/pod-security-sets';
import { ProblemCollector } from '../../k8s/problems';
import { NodeServiceKind } from '../../policy/kinds';
import { ContainerSpec } from '../container';
import { MountPropagation } from '../host-path';
import { NodeRequirement } from '../placement';
import type { NodeServiceProps } from '../props';
import { Variant } from '../variant';
import type { PodIntent } from './pod';
import { WINDOWS_KEY } from './variants';

/** The suppression reason of `privileged-container` a HostProcess pod records. */
export function hostProcessReason(reason: string | undefined): string {
  return `Windows HostProcess: ${reason ?? ''}`;
}

/**
 * `pod` as a Windows HostProcess pod run as `runAsUserName`: `spec.os.name: windows`, the Windows node selector, the
 * host network (which HostProcess requires), no host PID namespace and none of the Linux-only pod-level user fields.
 */
export function hostProcessPod(pod: PodIntent, runAsUserName: string | undefined): PodIntent {
  return {
    ...pod,
    hostNetwork: true,
    hostPID: false,
    nodeSelector: { ...pod.nodeSelector, [WINDOWS_KEY]: 'windows' },
    runAsUser: undefined,
    runAsGroup: undefined,
    fsGroup: undefined,
    windows: { runAsUserName: runAsUserName ?? Variant.WINDOWS_SYSTEM_USER },
  };
}

/** Container props that are Linux-only (the API server rejects them, or the Windows pod would silently drop them). */
const LINUX_CONTAINER_PROPS = [
  'capabilities',
  'seccompProfile',
  'privileged',
  'privilegedReason',
  'readOnlyRootFilesystem',
  'runAsUser',
  'runAsGroup',
  'runAsNonRoot',
] as const;

/** Pod-level props that are Linux-only. */
const LINUX_POD_PROPS = ['runAsUser', 'runAsGroup', 'fsGroup'] as const;

/**
 * Checks a Windows-only service (`windows` given): its options, its kind, and every Linux-only prop given with it,
 * each under the field the user wrote.
 */
export function checkWindowsService(props: NodeServiceProps, kind: NodeServiceKind, problems: ProblemCollector): void {
  const w = props.windows;
  if (w === undefined) return;
  problems.check('windows.reason', w.reason, reasonError(w.reason), 'say why the service needs HostProcess containers on Windows nodes');
  if (w.runAsUserName !== undefined)
    problems.check(
      'windows.runAsUserName',
      w.runAsUserName,
      windowsUserNameError(w.runAsUserName),
      'use e.g. "NT AUTHORITY\\\\SYSTEM" or "NT AUTHORITY\\\\Local service"',
    );
  if (!Variant.WINDOWS_KINDS.includes(kind))
    problems.add(
      'kind',
      kind,
      `a ${kind} may not run Windows HostProcess pods (kinds that may: ${Variant.WINDOWS_KINDS.join(', ')})`,
      'build the Windows agent with a kind that may, or drop windows',
    );
  checkWindowsPodProps(props, problems);
  props.containers.forEach((c, i) => checkWindowsContainer(c, `containers[${i}]`, problems));
  (props.initContainers ?? []).forEach((c, i) => checkWindowsContainer(c, `initContainers[${i}]`, problems));
}

/** Checks the pod-level props of a Windows-only service. */
function checkWindowsPodProps(props: NodeServiceProps, problems: ProblemCollector): void {
  const onWindows = 'remove it (a Windows pod runs as windows.runAsUserName)';
  for (const prop of LINUX_POD_PROPS)
    if (props[prop] !== undefined) problems.add(prop, props[prop], 'is Linux-only (rejected with spec.os.name windows)', onWindows);
  if (props.hostNetwork === false)
    problems.add('hostNetwork', false, 'a HostProcess pod must use the host network', 'drop hostNetwork (windows implies it)');
  if (props.hostPID === true)
    problems.add(
      'hostPID',
      true,
      'has no meaning on Windows (HostProcess containers already run as processes on the node)',
      'drop hostPID',
    );
  const os = props.nodeSelector?.[WINDOWS_KEY];
  if (os !== undefined && os !== 'windows')
    problems.add(
      `nodeSelector["${WINDOWS_KEY}"]`,
      os,
      'selects other nodes than Windows ones: the pods would run on no node',
      `drop it (windows selects ${WINDOWS_KEY}: windows)`,
    );
  checkWindowsRequirements(props, problems);
  for (const key of Object.keys(props.podAnnotations ?? {}))
    if (key.startsWith(APPARMOR_ANNOTATION_PREFIX))
      problems.add(`podAnnotations["${key}"]`, props.podAnnotations![key], 'AppArmor is Linux-only', 'remove the annotation');
}

/** Whether a node requirement leaves out the Windows nodes (`kubernetes.io/os` In without, NotIn with `windows`). */
function excludesWindows(r: NodeRequirement): boolean {
  if (r.key !== WINDOWS_KEY) return false;
  const listed = (r.values ?? []).includes('windows');
  return r.operator === 'DoesNotExist' || (r.operator === 'In' && !listed) || (r.operator === 'NotIn' && listed);
}

/** Checks the node requirements of a Windows-only service: none may leave out the Windows nodes. */
function checkWindowsRequirements(props: NodeServiceProps, problems: ProblemCollector): void {
  const fix = `drop it (windows selects ${WINDOWS_KEY}: windows)`;
  const problem = 'leaves out the Windows nodes: the pods would run on no node';
  (props.nodeRequirements ?? []).forEach((r, i) => {
    if (excludesWindows(r)) problems.add(`nodeRequirements[${i}]`, r.toJson(), problem, fix);
  });
  (props.nodeAffinity ?? []).forEach((term, i) =>
    term.requirements.forEach((r, j) => {
      if (excludesWindows(r)) problems.add(`nodeAffinity[${i}].requirements[${j}]`, r.toJson(), problem, fix);
    }),
  );
}

/** Checks one container of a Windows-only service: no Linux-only prop, no mount propagation. */
function checkWindowsContainer(c: ContainerSpec, field: string, problems: ProblemCollector): void {
  for (const prop of LINUX_CONTAINER_PROPS)
    if (c[prop] !== undefined)
      problems.add(
        `${field}.${prop}`,
        c[prop],
        'is Linux-only: a HostProcess container has no Linux security context (rejected with spec.os.name windows)',
        prop === 'privileged' || prop === 'privilegedReason'
          ? 'remove it (every container of a Windows service is HostProcess, the Windows privileged: windows.reason says why)'
          : 'remove it',
      );
  (c.hostPaths ?? []).forEach((h, j) => {
    if (h.propagation !== MountPropagation.NONE)
      problems.add(
        `${field}.hostPaths[${j}].propagation`,
        h.propagation,
        'mount propagation is not supported on Windows',
        'drop propagation (MountPropagation.NONE)',
      );
  });
}
