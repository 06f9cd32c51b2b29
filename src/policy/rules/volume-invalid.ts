import { VOLUME_SOURCES } from '../../k8s';
import { asObject, dns1123LabelErrorOf, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

const SOURCE_FIELDS: ReadonlySet<string> = new Set(VOLUME_SOURCES);

/**
 * How many source fields a volume sets (non-null, non-undefined). For plain objects it counts the volume's own keys
 * instead of looking up all 29 source names in every volume; the list of sources (in catalogue order) is only
 * built for a message.
 */
function sourceCount(volume: Record<string, any>): number {
  const proto = Object.getPrototypeOf(volume);
  if (proto !== Object.prototype && proto !== null) {
    return VOLUME_SOURCES.filter((s) => volume[s] !== undefined && volume[s] !== null).length;
  }
  let n = 0;
  for (const key of Object.keys(volume)) {
    if (SOURCE_FIELDS.has(key) && volume[key] !== undefined && volume[key] !== null) n++;
  }
  return n;
}

/** Each volume needs a DNS-1123 label name and exactly one source. */
export const volumeInvalid = defineRule({
  id: 'volume-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Volumes need a valid name and exactly one source',
  rationale:
    'A volume name is required and must be a DNS-1123 label; each volume must set exactly one source (hostPath, configMap, emptyDir…): none is "must specify a volume type", two are "may not specify more than 1 volume type".',
  fix: 'Name the volume (e.g. `varlog`) and keep exactly one source field in it.',
  example: 'volumes:\n  - name: varlog\n    hostPath: {path: /var/log, type: Directory}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    view.volumes.forEach((raw, i) => {
      const volume = asObject(raw);
      const name = volume.name;
      const nameError = typeof name === 'string' ? dns1123LabelErrorOf(name) : 'is missing';
      if (nameError) out.push({ path: jsonPath(view.podPath, 'volumes', i, 'name'), message: `volume name ${show(name)} ${nameError}` });
      const count = sourceCount(volume);
      if (count === 0) {
        out.push({
          path: jsonPath(view.podPath, 'volumes', i),
          message: `volume ${show(name)} has no source (set one of hostPath, configMap, secret, emptyDir, projected, csi…)`,
        });
      } else if (count > 1) {
        const sources = VOLUME_SOURCES.filter((s) => volume[s] !== undefined && volume[s] !== null);
        out.push({
          path: jsonPath(view.podPath, 'volumes', i),
          message: `volume ${show(name)} sets ${sources.length} sources (${sources.join(', ')}); exactly one is allowed`,
        });
      }
    });
    return out;
  },
});
