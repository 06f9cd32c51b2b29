import { BASELINE_CAPABILITIES as BASELINE_CAPABILITY_LIST } from '../../k8s/pod-security-sets';
import { containersOf, ContainerRef, containerWords, list, obj, PodSecurityControl, PodSecurityLevel, securityContext } from './control';

const BASELINE_CAPABILITIES = new Set(BASELINE_CAPABILITY_LIST);

/**
 * `capabilities_baseline`: only the baseline capabilities may be added. The admission policies deny every added
 * capability instead (`addedCapabilities`, host access), so this control renders no CEL of its own. @internal
 */
export const capabilitiesBaseline: PodSecurityControl = {
  id: 'capabilities_baseline',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const caps = new Set<string>();
    const bad: ContainerRef[] = [];
    for (const c of containersOf(pod)) {
      const added = list(obj(securityContext(c).capabilities).add).filter((cap) => !BASELINE_CAPABILITIES.has(cap));
      if (added.length > 0) {
        bad.push(c);
        added.forEach((cap) => caps.add(String(cap)));
      }
    }
    if (bad.length === 0) return undefined;
    return {
      summary: `capabilities.add ${[...caps].sort().join(', ')} (${containerWords(bad.map((c) => c.name))})`,
      fields: bad.map((c) => `${c.path}.securityContext.capabilities.add`),
    };
  },
};
