/**
 * The pod templates of a service's tracks (canary, variants and their canaries), each checked as it is rendered: the
 * names its DaemonSet and instance label take, and the problems of what the track changes, reported under the fields
 * the user wrote (`canary.image`, `variants[0].resources`); the problems it shares with the default DaemonSet are
 * reported once, with that one.
 */

import { dns1123LabelError, labelValueError } from '../../k8s';
import { ProblemCollector } from '../../k8s/problems';
import { TrackIntent } from '../intent';
import { WirePodTemplateSpec } from '../wire';
import { buildPodTemplate } from './pod';

/** A track and its rendered pod template. */
export interface RenderedTrack {
  readonly intent: TrackIntent;
  readonly template: WirePodTemplateSpec;
}

/** Renders the pod template of every track, in order, checking the names of its DaemonSet. */
export function renderTracks(serviceName: string, tracks: TrackIntent[], problems: ProblemCollector): RenderedTrack[] {
  const names = new Map<string, string>([[serviceName, 'name']]);
  return tracks.map((t) => {
    checkTrackNames(t, names, problems);
    return { intent: t, template: renderTrack(t, problems) };
  });
}

/** Checks the names a track's DaemonSet takes: not another's, and valid with the variant's name in them. */
function checkTrackNames(t: TrackIntent, names: Map<string, string>, problems: ProblemCollector): void {
  const previous = names.get(t.daemonSetName);
  if (previous !== undefined)
    problems.add(
      `${t.field}`,
      t.daemonSetName,
      `its DaemonSet name "${t.daemonSetName}" is also that of ${previous}`,
      'give the variant another name',
    );
  else names.set(t.daemonSetName, t.field);
  if (t.variant !== undefined && dns1123LabelError(t.variant) === undefined) {
    const nameField = `${t.field.replace(/\.canary$/, '')}.name`;
    problems.check(
      nameField,
      t.variant,
      dns1123LabelError(t.daemonSetName)
        ? `makes the DaemonSet name "${t.daemonSetName}" ${dns1123LabelError(t.daemonSetName)}`
        : undefined,
      'use a shorter variant name',
    );
    problems.check(
      nameField,
      t.variant,
      labelValueError(t.instance) ? `makes the instance label "${t.instance}" invalid: ${labelValueError(t.instance)}` : undefined,
      'use a shorter variant name',
    );
  }
}

/** The pod template of a track; only the problems under the track's own field are reported. */
function renderTrack(t: TrackIntent, problems: ProblemCollector): WirePodTemplateSpec {
  const own = new ProblemCollector();
  t.renames.forEach(([from, to]) => own.rename(from, to));
  const template = buildPodTemplate(t.pod, own);
  own.forEach((p) => {
    if (under(p.field, t.field)) problems.addRendered(p);
  });
  return template;
}

/** Whether `field` is `prefix` or lies under it. */
function under(field: string, prefix: string): boolean {
  return field === prefix || field.startsWith(`${prefix}.`) || field.startsWith(`${prefix}[`);
}
