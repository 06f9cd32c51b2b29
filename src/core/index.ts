export * from './errors';
export * from './host-path';
export * from './container';
export * from './placement';
export * from './rollout';
export * from './api-access';
export * from './labels';
export * from './node-service';
