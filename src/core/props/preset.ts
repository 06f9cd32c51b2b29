/**
 * Runtime shapes of the props every preset accepts: the option groups shared with `NodeService`, the container
 * options, and the host-access extras.
 */

import { bool, list, object, opt, ShapeTable, str } from '../../k8s/shape';
import { CONTAINER_OPTIONS_SHAPE } from './container';
import { CONTAINER_SECURITY_SHAPE } from './container-security';
import { CONTAINER_SPEC_SHAPE } from './container-spec';
import { hostPathShape, stringList } from './elements';
import { SERVICE_GROUPS_SHAPE } from './node-service';

/** Shape of the host-access extras every preset offers. @internal */
const PRESET_EXTRAS_SHAPE: ShapeTable = {
  name: opt(str),
  extraArgs: opt(stringList),
  extraHostPaths: opt(list(hostPathShape)),
  extraCapabilities: opt(stringList),
  extraCapabilitiesReason: opt(str),
  includeVirtualNodes: opt(bool),
  sidecars: opt(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
  extraInitContainers: opt(list(object('ContainerSpec', CONTAINER_SPEC_SHAPE))),
};

/** Shape of the props every preset accepts. @internal */
export const PRESET_SHAPE: ShapeTable = {
  ...SERVICE_GROUPS_SHAPE,
  ...CONTAINER_OPTIONS_SHAPE,
  ...CONTAINER_SECURITY_SHAPE,
  ...PRESET_EXTRAS_SHAPE,
};
