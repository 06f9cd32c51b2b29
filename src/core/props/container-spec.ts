/**
 * Runtime shape of a {@link ContainerSpec}: its option groups and its own fields (name, ports, host access).
 */

import { int, list, object, oneOf, opt, req, ShapeTable, str } from '../../k8s/shape';
import { CONTAINER_OPTIONS_SHAPE } from './container';
import { CONTAINER_SECURITY_SHAPE } from './container-security';
import { hostPathShape, stringList } from './elements';
import { PRIVILEGE_SHAPE } from './privilege';

/** Shape of a {@link ContainerSpec}. @internal */
export const CONTAINER_SPEC_SHAPE: ShapeTable = {
  ...CONTAINER_OPTIONS_SHAPE,
  ...PRIVILEGE_SHAPE,
  ...CONTAINER_SECURITY_SHAPE,
  name: req(str),
  ports: opt(
    list(
      object('PortSpec', {
        name: req(str),
        containerPort: req(int),
        protocol: opt(oneOf('Protocol', ['TCP', 'UDP', 'SCTP'])),
        hostPort: opt(int),
      }),
    ),
  ),
  hostPaths: opt(list(hostPathShape)),
  capabilities: opt(stringList),
};
