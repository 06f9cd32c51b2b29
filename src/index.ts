/**
 * The public API of cdk8s-node-services, every name listed (docs/api-surface.md says what is public and why). The CLI
 * is not part of it: it loads from its own bundle.
 */

// Provides the coverage analysis with the rule catalogue's API-validity judge (the catalogue loads on first use).
import './policy/api-validity';

// The node service construct, its option groups and value classes (host paths, probes, pools, rollout, variants).
export {
  ApiPermission,
  Canary,
  CanaryOptions,
  CONFIG_HASH_ANNOTATION,
  ConfigHash,
  ContainerOptions,
  ContainerProcessOptions,
  ContainerSecurityOptions,
  ContainerSpec,
  DEFAULT_NAMESPACE,
  DnsConfig,
  DnsPolicy,
  EmptyDirOptions,
  EnvField,
  EnvSource,
  HealthEndpointOptions,
  HostAlias,
  HostPath,
  HostPathOptions,
  HostPathType,
  HttpProbeOptions,
  ImagePullPolicy,
  ImagePullSecret,
  IntOrPercent,
  LocalServiceOptions,
  MetadataOptions,
  Mount,
  MountOptions,
  MountPropagation,
  NetworkAccessOptions,
  OverrideOptions,
  NetworkEgressPort,
  NetworkEgressRule,
  NetworkIngressRule,
  NetworkPeer,
  NetworkPolicyOptions,
  NodeAffinityTerm,
  NodeBudget,
  NodeBudgetProps,
  NodePool,
  NodePoolProps,
  NodeRequirement,
  NodeService,
  NodeServiceError,
  NodeServiceProps,
  PlacementOptions,
  PodOptions,
  PoolVariantOptions,
  PortSpec,
  PreemptionPolicy,
  PriorityClassOptions,
  PriorityClassSpec,
  PrivilegeOptions,
  Probe,
  ProbeOptions,
  PropProblem,
  Protocol,
  READ_VERBS,
  Resources,
  Rollout,
  RolloutOptions,
  RuleSuppression,
  SeccompProfile,
  ServicePortOptions,
  StateDirOptions,
  Taint,
  TaintEffect,
  Toleration,
  TolerationOptions,
  Variant,
  VariantOptions,
  VariantType,
  WindowsPodOptions,
  WindowsVariantOptions,
  WritableHostPathOptions,
} from './core';

// One preset per kind of node service, and the constants their defaults are made of.
export {
  CniPlugin,
  CniPluginProps,
  ContainerRuntime,
  CsiNode,
  CsiNodeProps,
  DCGM_PROFILING_COUNTERS,
  GPU_MONITOR_RESOURCES,
  GpuMonitor,
  GpuMonitorProps,
  LOG_AGENT_RESOURCES,
  LogAgent,
  LogAgentProps,
  MONITORING_AGENT_RESOURCES,
  MonitoringAgent,
  MonitoringAgentProps,
  NodeServicePresetProps,
  POD_RESOURCES_DIR,
  SecurityAgent,
  SecurityAgentMode,
  SecurityAgentProps,
} from './presets';
// The constants of the presets' helper modules, named here once, from the module that defines each.
export { CNI_PLUGIN_CAPABILITIES, CNI_PLUGIN_RESOURCES } from './presets/cni-agent';
export { CNI_BIN_MOUNT_PATH, CNI_CONF_MOUNT_PATH, CNI_INSTALLER_RESOURCES, CniInstaller } from './presets/cni-installer';
// In the order of CsiNode's static twins: the images, the resources, then the socket directory and the ports.
export {
  CSI_NODE_DRIVER_REGISTRAR_IMAGE,
  CSI_LIVENESS_PROBE_IMAGE,
  CSI_SIDECAR_RESOURCES,
  CSI_SOCKET_DIR,
  CSI_HEALTH_PORT,
  CSI_REGISTRAR_HEALTH_PORT,
} from './presets/csi-sidecars';
export { CSI_DRIVER_RESOURCES } from './presets/csi-driver';
export {
  COMPLIANCE_SCANNER_RESOURCES,
  RUNTIME_SENSOR_CAPABILITIES,
  SECURITY_AGENT_HOST_ROOT,
  SECURITY_AGENT_RESOURCES,
} from './presets/security-modes';

// The kind table: what each kind of node service may do.
export {
  HostPathAllowance,
  KIND_ANNOTATION,
  kindProfile,
  KindProfile,
  KindSource,
  MemoryLimitPolicy,
  NodeServiceKind,
  NodeServiceKinds,
} from './policy/kinds';

// Namespaces with Pod Security labels, admission policies and the Pod Security evaluator.
export {
  AdmissionFailurePolicy,
  AdmissionPolicyApiVersion,
  DEFAULT_CRITICAL_PODS_LIMIT,
  evaluatePodSecurity,
  NodeServiceGuardrails,
  NodeServiceGuardrailsProps,
  NodeServiceNamespace,
  NodeServiceNamespaceProps,
  NodeServicesNamespace,
  NodeServicesNamespaceProps,
  POD_SECURITY_LABEL_PREFIX,
  POD_SECURITY_POLICY_VERSION,
  PodSecurity,
  PodSecurityEvaluation,
  PodSecurityLevel,
  PodSecurityViolation,
  strictestCommonLevel,
  SystemPriorityClass,
  TRUST_LABEL_KEY,
  TRUST_LABEL_VALUE,
  ValidationAction,
} from './guardrails';

// Coverage alert rules and PodMonitors.
export {
  AlertRuleLayout,
  AlertSeverity,
  DEFAULT_KUBE_STATE_METRICS_SELECTOR,
  NodeServiceAlert,
  NodeServiceAlerts,
  NodeServiceAlertsProps,
  NodeServiceAlertTarget,
  NodeServiceMetricsEndpoint,
} from './observability';

// The policy engine, rule configuration, suppressions, synth-time checks and the cdk8s validation plugin.
export {
  CheckedObject,
  checkManifests,
  Finding,
  IPolicyLogger,
  IValidationContext,
  IValidationReport,
  KindSeverity,
  NodeServiceChecks,
  NodeServiceChecksProps,
  NodeServicesValidation,
  NodeServicesValidationProps,
  NodeServiceValidation,
  NodeServiceValidationProps,
  ObjectRef,
  ON_DELETE_REASON_ANNOTATION,
  PolicyConfigError,
  PolicyEngine,
  PolicyLoggers,
  PolicyReport,
  RuleCatalogue,
  RuleCategory,
  RuleConfig,
  RuleDocs,
  RuleInfo,
  RuleLevel,
  Severity,
  SUPPRESSION_ANNOTATION_PREFIX,
  suppressionAnnotationKey,
  Suppressions,
  ValidationViolatingResource,
  ValidationViolation,
} from './policy';

// A fleet of clusters (one App per cluster) and its GitOps hand-off.
export {
  ArgoCdOptions,
  Fleet,
  FleetCluster,
  FleetClusterOptions,
  FleetProps,
  FleetServicesOptions,
  FluxOptions,
  GitOps,
  IFleetServices,
} from './fleet';

// The Kubernetes API field tables: unknown fields, wrong types, versions.
export {
  ApiFields,
  DEFAULT_KUBERNETES_VERSION,
  KUBERNETES_VERSIONS,
  KubernetesVersion,
  UnknownField,
  unknownFields,
  UnknownFieldsOptions,
  versionProblems,
  WrongTypeField,
  wrongTypeFields,
} from './k8s/api-fields';

// The base class of every error of the library and the CLI, and its codes.
export { ErrorProblem, NodeServicesError, NodeServicesErrorCode } from './k8s/node-services-error';

// The error of an input that cannot be used (thrown by the validation plugin and `evaluatePodSecurity`).
export { InputError } from './manifests/input-error';
