/**
 * The pod of a service's default DaemonSet, resolved: every pod-level setting defaulted, the config hash and the
 * image pull secrets checked.
 */

import { secretNameError } from '../../k8s';
import { KindProfile, kindProfile, NodeServiceKind } from '../../policy/kinds';
import { ConfigHash, CONFIG_HASH_ANNOTATION } from '../config-hash';
import { ContainerSpec } from '../container';
import { ProblemCollector } from '../../k8s/problems';
import { trackLabels } from '../labels';
import { NodeAffinityTerm, NodeRequirement, Toleration } from '../placement';
import type { DnsConfig, DnsPolicy, HostAlias, NodeServiceProps } from '../props';
import { resolveIdentity } from './identity';
import { MetadataIntent } from './metadata';
import { resolvePlacement } from './placement';
import { checkWindowsService, hostProcessPod } from './windows';

/** Everything the pod builder needs, already defaulted. */
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
  /** The field the user wrote for a requirement that is not one of their own `nodeAffinity` terms' (`nodeRequirements[0]`). */
  readonly requirementFields: ReadonlyMap<NodeRequirement, string>;
  readonly tolerations: Toleration[];
  readonly priorityClassName?: string;
  readonly serviceAccountName?: string;
  readonly automountServiceAccountToken: boolean;
  readonly terminationGracePeriodSeconds: number;
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly fsGroup?: number;
  readonly configHash: ConfigHash;
  readonly imagePullSecrets: string[];
  readonly runtimeClassName?: string;
  readonly hostAliases: HostAlias[];
  readonly dnsConfig?: DnsConfig;
  /** A Windows HostProcess pod (`spec.os.name: windows`), run as this user. */
  readonly windows?: { readonly runAsUserName: string };
}

/**
 * Resolves the pod of the default DaemonSet from the props and what the service resolved before it: a Windows
 * HostProcess pod for a Windows-only service (`windows`, checked here).
 */
export function resolvePod(
  props: NodeServiceProps,
  kind: NodeServiceKind,
  meta: MetadataIntent,
  identity: ReturnType<typeof resolveIdentity>,
  placement: ReturnType<typeof resolvePlacement>,
  problems: ProblemCollector,
): PodIntent {
  checkWindowsService(props, kind, problems);
  const hostNetwork = props.hostNetwork ?? props.windows !== undefined;
  const pod: PodIntent = {
    kind,
    profile: kindProfile(kind),
    labels: { ...meta.labels, ...trackLabels(meta.instance, 'stable') },
    annotations: { ...(props.podAnnotations ?? {}) },
    containers: props.containers,
    initContainers: props.initContainers ?? [],
    hostNetwork,
    hostPID: props.hostPID ?? false,
    dnsPolicy: props.dnsPolicy ?? ((hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst') as DnsPolicy),
    nodeSelector: props.nodeSelector ?? (props.windows ? {} : { 'kubernetes.io/os': 'linux' }),
    affinityTerms: placement.affinityTerms,
    requirementFields: placement.requirementFields,
    tolerations: placement.tolerations,
    priorityClassName: props.priorityClass?.options.name ?? props.priorityClassName,
    serviceAccountName: identity.serviceAccountName,
    automountServiceAccountToken: identity.automount,
    terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 30,
    runAsUser: props.runAsUser,
    runAsGroup: props.runAsGroup,
    fsGroup: props.fsGroup,
    configHash: resolveConfigHash(props, problems),
    imagePullSecrets: resolveImagePullSecrets(props, problems),
    runtimeClassName: props.runtimeClassName,
    hostAliases: props.hostAliases ?? [],
    dnsConfig: props.dnsConfig,
  };
  return props.windows ? hostProcessPod(pod, props.windows.runAsUserName) : pod;
}

/** Resolves `imagePullSecrets` to Secret names (each once). */
function resolveImagePullSecrets(props: NodeServiceProps, problems: ProblemCollector): string[] {
  const names: string[] = [];
  (props.imagePullSecrets ?? []).forEach((s, i) => {
    problems.check(
      `imagePullSecrets[${i}]`,
      s.name,
      secretNameError(s.name),
      'use the name of a Secret of type kubernetes.io/dockerconfigjson',
    );
    if (names.includes(s.name)) problems.add(`imagePullSecrets[${i}]`, s.name, 'is listed twice', 'list each Secret once');
    else names.push(s.name);
  });
  return names;
}

/** Resolves `configHash`; the annotation it sets cannot also be given in `podAnnotations`. */
function resolveConfigHash(props: NodeServiceProps, problems: ProblemCollector): ConfigHash {
  const hash = props.configHash ?? ConfigHash.auto();
  if (hash.mode === 'Value' && (hash.value === undefined || hash.value === ''))
    problems.add(
      'configHash',
      hash.value,
      'ConfigHash.of needs a non-empty value',
      'pass the version or checksum of the external configuration',
    );
  if (props.podAnnotations?.[CONFIG_HASH_ANNOTATION] !== undefined && hash.mode !== 'Disabled')
    problems.add(
      `podAnnotations["${CONFIG_HASH_ANNOTATION}"]`,
      props.podAnnotations[CONFIG_HASH_ANNOTATION],
      'is set by configHash',
      'use configHash: ConfigHash.of(value), or drop the annotation',
    );
  return hash;
}
