/**
 * Option group: a container's process (command, environment, mounts, resources, syscall filter).
 */

import type { EnvField, Resources } from '../container';
import { EnvSource, Mount, MOUNTS_SHAPE, RESOURCES_SHAPE, SeccompProfile } from '../container';
import { instance, json, list, object, opt, req, ShapeTable, str } from '../../k8s/shape';
import { stringList, stringMap } from './elements';

/** A container's process: command, environment, mounts, resources and syscall filter (containers and installers alike). */
export interface ContainerProcessOptions {
  /**
   * Entrypoint override.
   * @default the image's entrypoint
   */
  readonly command?: string[];
  /**
   * Arguments. On a preset they replace the preset's default arguments (see `extraArgs` to add to them).
   * @default the image's arguments (presets: their own)
   */
  readonly args?: string[];
  /**
   * Working directory.
   * @default the image's
   */
  readonly workingDir?: string;
  /**
   * Plain environment variables (on a preset: added to the preset's own).
   * @default none
   */
  readonly env?: { [name: string]: string };
  /**
   * Environment variables from the downward API, e.g. `{ NODE_NAME: EnvField.NODE_NAME }` (on a preset: added to the
   * preset's own).
   * @default none
   */
  readonly fieldEnv?: { [name: string]: EnvField };
  /**
   * Whole ConfigMaps or Secrets as environment variables.
   * @default none
   */
  readonly envFrom?: EnvSource[];
  /**
   * Pod-local mounts (emptyDir, ConfigMap, Secret); on a preset, added to the preset's own.
   * @default none
   */
  readonly mounts?: Mount[];
  /**
   * Compute resources.
   * @default cpu request 100m, memory request 128Mi, memory limit 256Mi, no CPU limit (presets: their own)
   */
  readonly resources?: Resources;
  /**
   * Seccomp profile.
   * @default SeccompProfile.runtimeDefault()
   */
  readonly seccompProfile?: SeccompProfile;
}

/** Shape of {@link ContainerProcessOptions}. @internal */
export const CONTAINER_PROCESS_SHAPE: ShapeTable = {
  command: opt(stringList),
  args: opt(stringList),
  workingDir: opt(str),
  env: opt(stringMap),
  fieldEnv: opt(stringMap),
  envFrom: opt(
    list(
      instance(EnvSource, 'EnvSource.configMap(name), EnvSource.secret(name) or EnvSource.fromConfigMap(configMap)', {
        name: req(str),
        _spec: req(object('EnvFromSource', { configMapRef: opt(json), secretRef: opt(json), prefix: opt(str) })),
        _config: opt(json),
      }),
    ),
  ),
  mounts: opt(MOUNTS_SHAPE),
  resources: opt(object('Resources', RESOURCES_SHAPE)),
  seccompProfile: opt(
    instance(SeccompProfile, 'SeccompProfile.runtimeDefault(), localhost(path) or unconfined(reason)', {
      type: req(str),
      localhostProfile: opt(str),
      reason: opt(str),
    }),
  ),
};
