import './policy/api-validity';
export * from './core';
export * from './presets';
export {
  NodeServiceKind,
  NodeServiceKinds,
  KIND_ANNOTATION,
  kindProfile,
  KindProfile,
  HostPathAllowance,
  KindSource,
  MemoryLimitPolicy,
} from './policy/kinds';
export * from './guardrails';
export * from './observability';
export * from './policy';
export * from './fleet';
export {
  ApiFields,
  KubernetesVersion,
  KUBERNETES_VERSIONS,
  DEFAULT_KUBERNETES_VERSION,
  UnknownField,
  UnknownFieldsOptions,
  unknownFields,
  versionProblems,
  WrongTypeField,
  wrongTypeFields,
} from './k8s/api-fields';
