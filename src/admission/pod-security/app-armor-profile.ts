import { APPARMOR_ANNOTATION_PREFIX } from '../../k8s/pod-security-sets';
import { celString } from '../cel';
import { obj, PodSecurityControl, PodSecurityLevel } from './control';

/** `appArmorProfile`: the per-container AppArmor annotations name `runtime/default`, `localhost/*` or nothing. @internal */
export const appArmorProfile: PodSecurityControl = {
  id: 'appArmorProfile',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const bad = Object.entries(obj(pod.metadata.annotations))
      .filter(([k]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX))
      .filter(([, v]) => !(v === '' || v === 'runtime/default' || (typeof v === 'string' && v.startsWith('localhost/'))))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (bad.length === 0) return undefined;
    return {
      summary: `AppArmor profile ${bad.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`,
      fields: bad.map(([k]) => `${pod.metadataPath}.annotations[${JSON.stringify(k)}]`),
    };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'appArmorProfiles',
    what: 'AppArmor profiles other than runtime/default or localhost/*',
    expression:
      `variables.podAnnotations.filter(k, k.startsWith(${celString(APPARMOR_ANNOTATION_PREFIX)}) && ` +
      "!(variables.podAnnotations[k] in ['', 'runtime/default'] || variables.podAnnotations[k].startsWith('localhost/')))" +
      ".map(k, k + '=' + variables.podAnnotations[k])",
  },
};
