export {
  NodeServiceNamespace,
  NodeServiceNamespaceProps,
  NodeServicesNamespace,
  NodeServicesNamespaceProps,
  SystemPriorityClass,
  TRUST_LABEL_KEY,
  TRUST_LABEL_VALUE,
  POD_SECURITY_LABEL_PREFIX,
  DEFAULT_CRITICAL_PODS_LIMIT,
} from './namespace';
export { PodSecurity } from './pod-security-class';
export {
  PodSecurityLevel,
  PodSecurityViolation,
  PodSecurityEvaluation,
  POD_SECURITY_POLICY_VERSION,
  evaluatePodSecurity,
  strictestCommonLevel,
} from '../admission/pod-security';
export {
  NodeServiceGuardrails,
  NodeServiceGuardrailsProps,
  ValidationAction,
  AdmissionPolicyApiVersion,
  AdmissionFailurePolicy,
} from './admission-policy';
