export {
  NodeServicesNamespace,
  NodeServicesNamespaceProps,
  PodSecurityLevel,
  SystemPriorityClass,
  TRUST_LABEL_KEY,
  TRUST_LABEL_VALUE,
  POD_SECURITY_LABEL_PREFIX,
  DEFAULT_CRITICAL_PODS_LIMIT,
} from './namespace';
export {
  NodeServiceGuardrails,
  NodeServiceGuardrailsProps,
  ValidationAction,
  AdmissionPolicyApiVersion,
  AdmissionFailurePolicy,
} from './admission-policy';
