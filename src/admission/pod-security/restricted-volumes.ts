import { VOLUME_SOURCES } from '../../k8s/pod-spec';
import { isSet, list, obj, PodSecurityControl, PodSecurityLevel, quote, under } from './control';

/** Every volume source of the Kubernetes 1.28 `Volume` type, in alphabetical order. @internal */
export const VOLUME_SOURCES_128: readonly string[] = [...VOLUME_SOURCES].sort();

/**
 * The volume sources Pod Security `restricted` allows (policy v1.28; the `image` source arrived later): the one list
 * the evaluator, the tenant volume types and the lint rules use. Every other 1.28 source is forbidden. @internal
 */
export const RESTRICTED_VOLUME_SOURCES: readonly string[] = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

const FORBIDDEN = VOLUME_SOURCES_128.filter((s) => !RESTRICTED_VOLUME_SOURCES.includes(s));

/**
 * `restrictedVolumes`: only the restricted volume sources. The tenant admission policy enforces the tenant volume
 * types instead (`deniedVolumes`, at least as strict at `restricted`), so this control renders no CEL of its own.
 * @internal
 */
export const restrictedVolumes: PodSecurityControl = {
  id: 'restrictedVolumes',
  level: PodSecurityLevel.RESTRICTED,
  version: 'v1.0',
  overrides: ['hostPathVolumes'],
  check(pod) {
    const types = new Set<string>();
    const names: string[] = [];
    const fields: string[] = [];
    list(pod.spec.volumes).forEach((raw, i) => {
      const v = obj(raw);
      if (RESTRICTED_VOLUME_SOURCES.some((s) => isSet(v[s]))) return;
      const source = FORBIDDEN.find((s) => isSet(v[s]));
      if (source === undefined) return; // no source the 1.28 API knows: defaulted to emptyDir
      types.add(source);
      names.push(String(v.name));
      fields.push(`${under(pod)}volumes[${i}].${source}`);
    });
    if (fields.length === 0) return undefined;
    return {
      summary: `volume types ${[...types].sort().join(', ')} (${names.length === 1 ? 'volume' : 'volumes'} ${quote(names)})`,
      fields,
    };
  },
};
