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
    'A volume name is required and must be a DNS-1123 label; a volume may set at most one source (hostPath, configMap, emptyDir…): two are "may not specify more than 1 volume type". A volume without a source is not an error: defaulting makes it an emptyDir before validation (a warning says so, since a source may have been forgotten).',
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
        // defaulting comes first: a volume without a source becomes an emptyDir (SetDefaults_Volume)
        out.push({
          path: jsonPath(view.podPath, 'volumes', i),
          message: `volume ${show(name)} has no source, so the API server makes it an emptyDir; write emptyDir: {} if that is meant, else set its source (hostPath, configMap, secret, projected, csi…)`,
          severity: Severity.WARNING,
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
