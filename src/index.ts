export * from './core';
export * from './presets';
export { NodeServiceKind, KIND_ANNOTATION, kindProfile, KindProfile, HostPathAllowance, KindSource } from './policy/kinds';
export * from './guardrails';
export * from './observability';
export * from './policy';
