import { dns1123LabelError } from '../../k8s/names';
import { VOLUME_SOURCES } from '../grammar';
import { asObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

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
      const base = jsonPath(view.podPath, 'volumes', i);
      const name = volume.name;
      const nameError = typeof name === 'string' ? dns1123LabelError(name) : 'is missing';
      if (nameError) out.push({ path: jsonPath(base, 'name'), message: `volume name ${show(name)} ${nameError}` });
      const sources = VOLUME_SOURCES.filter((s) => volume[s] !== undefined && volume[s] !== null);
      if (sources.length === 0) {
        out.push({ path: base, message: `volume ${show(name)} has no source (set one of hostPath, configMap, secret, emptyDir, projected, csi…)` });
      } else if (sources.length > 1) {
        out.push({ path: base, message: `volume ${show(name)} sets ${sources.length} sources (${sources.join(', ')}); exactly one is allowed` });
      }
    });
    return out;
  },
});
