export { NodeServiceError, PropProblem } from './errors';
export * from './host-path';
export * from './container';
export * from './placement';
export * from './rollout';
export * from './api-access';
export * from './node-service';
export * from './node-pool';
export * from './canary';
