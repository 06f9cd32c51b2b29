/**
 * The rule catalogue: every rule, grouped by category (API validity, host access, reliability, fit).
 * One file per rule, named after its id.
 */

import type { IPolicyRule } from '../types';
import { containerFieldsInvalid } from './container-fields-invalid';
import { podFieldsInvalid } from './pod-fields-invalid';
import { windowsFieldsInvalid } from './windows-fields-invalid';
import { runAsNonRoot } from './run-as-non-root';
import { probePortUndeclared } from './probe-port-undeclared';
import { duplicateEnvVar } from './duplicate-env-var';
import { deprecatedServiceAccountField } from './deprecated-service-account-field';
import { unsafeSysctl } from './unsafe-sysctl';
import { serviceAccountMissing } from './service-account-missing';
import { serviceAccountRbac } from './service-account-rbac';
import { annotationInvalid } from './annotation-invalid';
import { bidirectionalPropagationUnprivileged } from './bidirectional-propagation-unprivileged';
import { containerImageMissing } from './container-image-missing';
import { containerNameInvalid } from './container-name-invalid';
import { daemonsetApiVersion } from './daemonset-api-version';
import { daemonsetSpecInvalid } from './daemonset-spec-invalid';
import { duplicateContainerName } from './duplicate-container-name';
import { duplicatePortName } from './duplicate-port-name';
import { duplicateVolumeName } from './duplicate-volume-name';
import { envVarInvalid } from './env-var-invalid';
import { fieldTypeInvalid } from './field-type-invalid';
import { hostNetworkHostPortMismatch } from './host-network-host-port-mismatch';
import { hostPathInvalid } from './host-path-invalid';
import { labelInvalid } from './label-invalid';
import { nodeSelectorInvalid } from './node-selector-invalid';
import { objectNameInvalid } from './object-name-invalid';
import { portInvalid } from './port-invalid';
import { privilegedEscalationConflict } from './privileged-escalation-conflict';
import { probeInvalid } from './probe-invalid';
import { quantityInvalid } from './quantity-invalid';
import { requestsExceedLimits } from './requests-exceed-limits';
import { restartPolicyNotAlways } from './restart-policy-not-always';
import { rollingUpdateInvalid } from './rolling-update-invalid';
import { selectorInvalid } from './selector-invalid';
import { selectorTemplateMismatch } from './selector-template-mismatch';
import { sysAdminEscalationConflict } from './sys-admin-escalation-conflict';
import { tolerationInvalid } from './toleration-invalid';
import { unknownField } from './unknown-field';
import { volumeInvalid } from './volume-invalid';
import { volumeMountInvalid } from './volume-mount-invalid';
import { volumeMountUnknownVolume } from './volume-mount-unknown-volume';
import { capabilitiesNotDropped } from './capabilities-not-dropped';
import { capabilityNotAllowed } from './capability-not-allowed';
import { containerRuntimeSocket } from './container-runtime-socket';
import { dangerousCapability } from './dangerous-capability';
import { hostIpcWithoutNeed } from './host-ipc-without-need';
import { hostNetworkWithoutNeed } from './host-network-without-need';
import { hostPathNotAllowed } from './host-path-not-allowed';
import { hostPathTypeMissing } from './host-path-type-missing';
import { hostPathWritable } from './host-path-writable';
import { hostPidWithoutNeed } from './host-pid-without-need';
import { privilegeEscalationAllowed } from './privilege-escalation-allowed';
import { privilegedContainer } from './privileged-container';
import { privilegedNotAllowed } from './privileged-not-allowed';
import { seccompProfileMissing } from './seccomp-profile-missing';
import { seccompUnconfined } from './seccomp-unconfined';
import { sensitiveHostPathWritable } from './sensitive-host-path-writable';
import { writableRootFilesystem } from './writable-root-filesystem';
import { cpuRequestMissing } from './cpu-request-missing';
import { hostNetworkDnsPolicy } from './host-network-dns-policy';
import { imageNotPinned } from './image-not-pinned';
import { imageRegistryNotAllowed } from './image-registry-not-allowed';
import { livenessProbeMissing } from './liveness-probe-missing';
import { memoryLimitMissing } from './memory-limit-missing';
import { memoryRequestMissing } from './memory-request-missing';
import { onDeleteWithoutReason } from './on-delete-without-reason';
import { priorityClassMissing } from './priority-class-missing';
import { readinessProbeMissing } from './readiness-probe-missing';
import { selectorUnstable } from './selector-unstable';
import { surgeWithHostPorts } from './surge-with-host-ports';
import { guardrailsDeny } from './guardrails-deny';
import { defaultNamespace } from './default-namespace';
import { invalidSuppression } from './invalid-suppression';
import { namespacePodSecurityLabels } from './namespace-pod-security-labels';
import { noNodeLocalNeed } from './no-node-local-need';
import { toleratesAllTaints } from './tolerates-all-taints';

/** Every rule of the catalogue, in documentation order. */
export const RULES: readonly IPolicyRule[] = [
  annotationInvalid,
  bidirectionalPropagationUnprivileged,
  containerImageMissing,
  containerNameInvalid,
  daemonsetApiVersion,
  daemonsetSpecInvalid,
  duplicateContainerName,
  duplicatePortName,
  duplicateVolumeName,
  envVarInvalid,
  fieldTypeInvalid,
  hostNetworkHostPortMismatch,
  hostPathInvalid,
  labelInvalid,
  nodeSelectorInvalid,
  objectNameInvalid,
  portInvalid,
  privilegedEscalationConflict,
  probeInvalid,
  quantityInvalid,
  requestsExceedLimits,
  restartPolicyNotAlways,
  rollingUpdateInvalid,
  selectorInvalid,
  selectorTemplateMismatch,
  sysAdminEscalationConflict,
  tolerationInvalid,
  unknownField,
  volumeInvalid,
  volumeMountInvalid,
  volumeMountUnknownVolume,
  containerFieldsInvalid,
  podFieldsInvalid,
  windowsFieldsInvalid,
  capabilitiesNotDropped,
  capabilityNotAllowed,
  containerRuntimeSocket,
  dangerousCapability,
  hostIpcWithoutNeed,
  hostNetworkWithoutNeed,
  hostPathNotAllowed,
  hostPathTypeMissing,
  hostPathWritable,
  hostPidWithoutNeed,
  privilegeEscalationAllowed,
  privilegedContainer,
  privilegedNotAllowed,
  runAsNonRoot,
  unsafeSysctl,
  serviceAccountRbac,
  seccompProfileMissing,
  seccompUnconfined,
  sensitiveHostPathWritable,
  writableRootFilesystem,
  cpuRequestMissing,
  hostNetworkDnsPolicy,
  imageNotPinned,
  imageRegistryNotAllowed,
  livenessProbeMissing,
  memoryLimitMissing,
  memoryRequestMissing,
  onDeleteWithoutReason,
  priorityClassMissing,
  readinessProbeMissing,
  probePortUndeclared,
  duplicateEnvVar,
  selectorUnstable,
  surgeWithHostPorts,
  defaultNamespace,
  deprecatedServiceAccountField,
  serviceAccountMissing,
  invalidSuppression,
  namespacePodSecurityLabels,
  guardrailsDeny,
  noNodeLocalNeed,
  toleratesAllTaints,
];
