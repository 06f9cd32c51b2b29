/**
 * Runtime shapes of the guardrail constructs' props, checked at the start of their constructors with the shared
 * boundary checker (callers may be plain JavaScript or other languages through jsii): the type of every field; the
 * constructs check their values (enumerations, names) themselves.
 */

import { bool, int, json, list, map, opt, ShapeTable, str } from '../k8s/shape';

let namespaceShape: ShapeTable | undefined;
let guardrailsShape: ShapeTable | undefined;

/** Shape of `NodeServiceNamespaceProps`. @internal */
export function namespacePropsShape(): ShapeTable {
  namespaceShape ??= {
    name: opt(str),
    // Enumerations are checked by the construct itself (its messages name the enum members).
    podSecurityLevel: opt(str),
    services: opt(list(json)),
    podSecurityVersion: opt(str),
    trusted: opt(bool),
    criticalPriorityClasses: opt(list(str)),
    criticalPodsLimit: opt(int),
    partOf: opt(str),
    labels: opt(map(str)),
    annotations: opt(map(str)),
  };
  return namespaceShape;
}

/** Shape of `NodeServiceGuardrailsProps`. @internal */
export function guardrailsPropsShape(): ShapeTable {
  guardrailsShape ??= {
    name: opt(str),
    // Required, and enumerations: the construct itself reports them (its messages name the enum members).
    contact: opt(str),
    registryAllowlist: opt(list(str)),
    hostPathAllowlist: opt(list(str)),
    protectTrustLabel: opt(bool),
    platformGroups: opt(list(str)),
    platformUsers: opt(list(str)),
    tenantPodSecurity: opt(str),
    allowedTenantVolumeTypes: opt(list(str)),
    exemptNamespaces: opt(list(str)),
    validationActions: opt(list(str)),
    dryRun: opt(bool),
    apiVersion: opt(str),
    failurePolicy: opt(str),
    partOf: opt(str),
    // An object with methods (IPolicyLogger); the construct calls it.
    logger: opt(json),
  };
  return guardrailsShape;
}
