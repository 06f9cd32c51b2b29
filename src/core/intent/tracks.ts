/**
 * The tracks of a service: every DaemonSet besides the default one (the canary, the variants and their canaries), with
 * the pod each one runs and the nodes it selects. Variants are disjoint by construction: Windows variants come first in
 * the exclusion order (so every Linux DaemonSet requires `kubernetes.io/os NotIn [windows]`), then the others in the
 * order given; each gets its match and the complement of every earlier match, the default DaemonSet the complement of
 * every match. A canary splits its DaemonSet in two by its label.
 */

import { CANARY_LABEL_ANNOTATION, CANARY_OF_ANNOTATION, VARIANT_OF_ANNOTATION } from '../../k8s/vocabulary';
import { suppressionAnnotationKey } from '../../policy/suppression';
import { Canary } from '../canary';
import { ProblemCollector } from '../../k8s/problems';
import { recommendedLabels, selectorLabels, trackLabels } from '../labels';
import { NodeAffinityTerm, NodeRequirement } from '../placement';
import type { NodeServiceProps } from '../props';
import { complementOf, withRequirements } from './affinity';
import { imageVersion, MetadataIntent } from './metadata';
import { checkCanary, checkOverrides, overridden, TrackOverrides, windowsContainer } from './overrides';
import { PodIntent } from './pod';
import { resolveVariants, VariantMatch } from './variants';
import { hostProcessPod, hostProcessReason } from './windows';

/** One DaemonSet of a service besides the default one: the canary, a variant, or a variant's canary. */
export interface TrackIntent {
  /** The construct id of its DaemonSet. */
  readonly id: string;
  readonly daemonSetName: string;
  /** Its `app.kubernetes.io/instance`. */
  readonly instance: string;
  /** The field the user wrote it under (`canary`, `variants[1]`, `variants[1].canary`). */
  readonly field: string;
  /** The variant it belongs to, if any. */
  readonly variant?: string;
  /** The canary split it is the canary half of, if it is a canary. */
  readonly canary?: Canary;
  readonly selector: { [key: string]: string };
  readonly labels: { [key: string]: string };
  readonly annotations: { [key: string]: string };
  readonly pod: PodIntent;
  /** Labels a pool's node needs besides the pool's own to run this DaemonSet (canary and node-label values). */
  readonly nodeLabels: { [key: string]: string };
  /** The pool a pool variant is for. */
  readonly pool?: string;
  /** Whether its pods differ from the ones it derives from in anything but the labels that select its nodes. */
  readonly changesSomething: boolean;
  /** The fields of its pod that the track changed, each to the field the user wrote (`containers[0].image` → `canary.image`). */
  readonly renames: Array<[string, string]>;
}

/** What every track of a service derives from. */
interface TrackBase {
  readonly props: NodeServiceProps;
  readonly pod: PodIntent;
  readonly meta: MetadataIntent;
  readonly annotations: { [key: string]: string };
}

/** A track before its labels: what it is, and what it changes. */
interface TrackDraft extends Omit<TrackIntent, 'selector' | 'labels' | 'changesSomething'> {
  readonly track: 'stable' | 'canary';
  readonly o: TrackOverrides;
  /** The image of its main container. */
  readonly image?: string;
}

/** Resolves every DaemonSet of the service besides the default one, and the default one's affinity. */
export function resolveTracks(
  props: NodeServiceProps,
  pod: PodIntent,
  meta: MetadataIntent,
  annotations: { [key: string]: string },
  problems: ProblemCollector,
): { stableTerms: NodeAffinityTerm[]; tracks: TrackIntent[] } {
  const variants = resolveVariants(props, pod.kind, problems);
  const chain = [...variants.filter((v) => v.windows), ...variants.filter((v) => !v.windows)];
  const complements = chain.map((v) => complementOf(v.match));
  const base: TrackBase = { props, pod, meta, annotations };
  const stableTerms = withRequirements(pod.affinityTerms, complements);
  const tracks: TrackIntent[] = [];
  if (props.canary) tracks.push(canaryTrack(base, props.canary, stableTerms, problems));
  for (const v of variants) {
    const terms = withRequirements(pod.affinityTerms, [v.match, ...complements.slice(0, chain.indexOf(v))]);
    tracks.push(...variantTracks(base, v, terms));
  }
  return { stableTerms, tracks };
}

/** A track with its labels and selector, and whether it changes anything. */
function trackOf(base: TrackBase, t: TrackDraft): TrackIntent {
  const { props, meta } = base;
  const labels = {
    ...(props.labels ?? {}),
    ...recommendedLabels({
      name: props.name,
      instance: t.instance,
      version: t.o.version ?? imageVersion(t.image ?? t.pod.containers[0]?.image),
      component: meta.component,
      partOf: meta.partOf,
    }),
    ...trackLabels(meta.instance, t.track, t.variant),
  };
  const changesSomething = t.renames.length > 0 || t.o.version !== undefined || t.o.mounts !== undefined || t.o.resources !== undefined;
  const { track: _t, o: _o, image: _im, ...rest } = t;
  return { ...rest, pod: { ...t.pod, labels }, labels, selector: selectorLabels(props.name, t.instance), changesSomething };
}

/** The annotations of a canary DaemonSet: those of the service, and which DaemonSet it is the canary of, by which label. */
function canaryAnnotations(base: TrackBase, of: string, c: Canary): { [key: string]: string } {
  return { ...base.annotations, [CANARY_OF_ANNOTATION]: of, [CANARY_LABEL_ANNOTATION]: `${c.key}=${c.value}` };
}

/** The canary of the default DaemonSet (its label and overrides checked). */
function canaryTrack(base: TrackBase, c: Canary, stableTerms: NodeAffinityTerm[], problems: ProblemCollector): TrackIntent {
  const { props, meta } = base;
  checkCanary(c, 'canary', problems);
  checkOverrides(props, 'canary', c.options, false, problems);
  const o = overridden(props.containers, props.initContainers ?? [], 'canary', c.options);
  return trackOf(base, {
    id: 'Canary',
    daemonSetName: `${props.name}-canary`,
    field: 'canary',
    canary: c,
    instance: `${meta.instance}-canary`,
    track: 'canary',
    o: c.options,
    renames: o.renames,
    image: c.options.image ?? props.containers[0]?.image,
    annotations: canaryAnnotations(base, props.name, c),
    pod: {
      ...base.pod,
      containers: o.containers,
      initContainers: o.initContainers,
      affinityTerms: withRequirements(stableTerms, [NodeRequirement.in(c.key, [c.value])]),
    },
    nodeLabels: { [c.key]: c.value },
  });
}

/** The pod of a variant, the renames of what it changes, and its annotations. */
interface VariantPod {
  readonly pod: PodIntent;
  readonly renames: Array<[string, string]>;
  readonly annotations: { [key: string]: string };
}

/** The DaemonSets of a variant: the variant's, and its canary's when it has one. */
function variantTracks(base: TrackBase, v: VariantMatch, terms: NodeAffinityTerm[]): TrackIntent[] {
  const { props, meta } = base;
  const o = v.variant.options as TrackOverrides;
  const daemonSetName = `${props.name}-${v.variant.name}`;
  const instance = `${meta.instance}-${v.variant.name}`;
  const own = v.windows ? windowsPod(base, v, o, terms) : linuxPod(base, v, o, terms);
  const c = o.canary;
  const stable = trackOf(base, {
    id: `Variant${v.variant.name}`,
    daemonSetName,
    field: v.field,
    variant: v.variant.name,
    instance,
    track: 'stable',
    o,
    renames: own.renames,
    image: o.image ?? props.containers[0]?.image,
    annotations: own.annotations,
    pod: c ? split(own.pod, terms, NodeRequirement.notIn(c.key, [c.value])) : own.pod,
    nodeLabels: v.nodeLabels,
    ...(v.pool !== undefined ? { pool: v.pool } : {}),
  });
  return c ? [stable, variantCanaryTrack(base, v, o, c, own, terms)] : [stable];
}

/** The pod with `requirement` ANDed into the variant's terms. */
function split(pod: PodIntent, terms: NodeAffinityTerm[], requirement: NodeRequirement): PodIntent {
  return { ...pod, affinityTerms: withRequirements(terms, [requirement]) };
}

/** The canary of a variant: the variant's nodes with the canary label. */
function variantCanaryTrack(
  base: TrackBase,
  v: VariantMatch,
  o: TrackOverrides,
  c: Canary,
  own: VariantPod,
  terms: NodeAffinityTerm[],
): TrackIntent {
  const { props, meta } = base;
  const daemonSetName = `${props.name}-${v.variant.name}`;
  const field = `${v.field}.canary`;
  const co = overridden(own.pod.containers, own.pod.initContainers, field, c.options);
  return trackOf(base, {
    id: `Variant${v.variant.name}Canary`,
    daemonSetName: `${daemonSetName}-canary`,
    field,
    variant: v.variant.name,
    canary: c,
    instance: `${meta.instance}-${v.variant.name}-canary`,
    track: 'canary',
    o: c.options,
    renames: [...co.renames, ...own.renames],
    image: c.options.image ?? o.image ?? props.containers[0]?.image,
    annotations: canaryAnnotations(base, daemonSetName, c),
    pod: { ...split(own.pod, terms, NodeRequirement.in(c.key, [c.value])), containers: co.containers, initContainers: co.initContainers },
    nodeLabels: { ...v.nodeLabels, [c.key]: c.value },
    ...(v.pool !== undefined ? { pool: v.pool } : {}),
  });
}

/** The annotations of a variant's DaemonSet: those of the service, and which service it is a variant of. */
function variantAnnotations(base: TrackBase): { [key: string]: string } {
  return { ...base.annotations, [VARIANT_OF_ANNOTATION]: base.props.name };
}

/** The pod of a Linux variant: the service's, with the variant's overrides. */
function linuxPod(base: TrackBase, v: VariantMatch, o: TrackOverrides, terms: NodeAffinityTerm[]): VariantPod {
  const { props } = base;
  const lo = overridden(props.containers, props.initContainers ?? [], v.field, o);
  return {
    pod: { ...base.pod, containers: lo.containers, initContainers: lo.initContainers, affinityTerms: terms },
    renames: lo.renames,
    annotations: variantAnnotations(base),
  };
}

/** The pod of a Windows variant: one HostProcess container on the host network, run as the Windows user. */
function windowsPod(base: TrackBase, v: VariantMatch, o: TrackOverrides, terms: NodeAffinityTerm[]): VariantPod {
  const w = windowsContainer(base.props.containers[0], v.field, o);
  const own = variantAnnotations(base);
  const key = suppressionAnnotationKey('privileged-container');
  const reason = hostProcessReason(o.reason);
  const pod = base.pod;
  return {
    pod: {
      ...hostProcessPod(pod, o.runAsUserName),
      containers: w.containers,
      initContainers: [],
      dnsPolicy: pod.dnsPolicy === 'ClusterFirst' ? 'ClusterFirstWithHostNet' : pod.dnsPolicy,
      // A RuntimeClass names a Linux runtime handler (e.g. nvidia); the Windows pod runs on the node's default.
      runtimeClassName: undefined,
      affinityTerms: terms,
    },
    renames: w.renames,
    annotations: { ...own, [key]: own[key] ? `${own[key]}; ${reason}` : reason },
  };
}
