/**
 * The Pod Security controls of policy v1.28, one file each, in the order upstream evaluates them: the one list the
 * evaluator (`evaluatePodSecurity`) and the admission policies (`admission-spec.ts`) are derived from.
 */

import { allowPrivilegeEscalation } from './allow-privilege-escalation';
import { appArmorProfile } from './app-armor-profile';
import { capabilitiesBaseline } from './capabilities-baseline';
import { capabilitiesRestricted } from './capabilities-restricted';
import { PodSecurityControl, PodSecurityLevel } from './control';
import { hostNamespaces } from './host-namespaces';
import { hostPathVolumes } from './host-path-volumes';
import { hostPorts } from './host-ports';
import { privileged } from './privileged';
import { procMount } from './proc-mount';
import { restrictedVolumes } from './restricted-volumes';
import { runAsNonRoot } from './run-as-non-root';
import { runAsUser } from './run-as-user';
import { seLinuxOptions } from './se-linux-options';
import { seccompProfileBaseline } from './seccomp-profile-baseline';
import { seccompProfileRestricted } from './seccomp-profile-restricted';
import { sysctls } from './sysctls';
import { windowsHostProcess } from './windows-host-process';

export * from './control';

/** Every control, baseline first. @internal */
export const POD_SECURITY_CONTROLS: readonly PodSecurityControl[] = [
  windowsHostProcess,
  hostNamespaces,
  privileged,
  capabilitiesBaseline,
  hostPathVolumes,
  hostPorts,
  appArmorProfile,
  seLinuxOptions,
  procMount,
  seccompProfileBaseline,
  sysctls,
  restrictedVolumes,
  allowPrivilegeEscalation,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
  capabilitiesRestricted,
];

const RANK: { [level: string]: number } = {
  [PodSecurityLevel.PRIVILEGED]: 0,
  [PodSecurityLevel.BASELINE]: 1,
  [PodSecurityLevel.RESTRICTED]: 2,
};

/** The rank of a level (privileged 0, baseline 1, restricted 2). @internal */
export function levelRank(level: PodSecurityLevel): number {
  return RANK[level];
}

/** The controls that apply at `level`, upstream's overrides applied. @internal */
export function controlsAt(level: PodSecurityLevel): PodSecurityControl[] {
  const applicable = POD_SECURITY_CONTROLS.filter((c) => RANK[c.level] <= RANK[level]);
  const overridden = new Set(applicable.flatMap((c) => c.overrides ?? []));
  return applicable.filter((c) => !overridden.has(c.id));
}
