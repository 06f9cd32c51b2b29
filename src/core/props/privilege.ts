/**
 * Option group: running a container privileged.
 */

import { bool, opt, ShapeTable, str } from '../../k8s/shape';

/** Running a container privileged. */
export interface PrivilegeOptions {
  /**
   * Run privileged. Only with `privilegedReason`, and only for kinds that may (CSI node plugins, CNI agents, runtime
   * sensors); the container then allows privilege escalation, as the API requires.
   * @default false
   */
  readonly privileged?: boolean;
  /**
   * Why the container must be privileged (at least 10 characters); required when `privileged` is true, and recorded
   * in the manifest for reviewers.
   * @default none
   */
  readonly privilegedReason?: string;
}

/** Shape of {@link PrivilegeOptions}. @internal */
export const PRIVILEGE_SHAPE: ShapeTable = { privileged: opt(bool), privilegedReason: opt(str) };
