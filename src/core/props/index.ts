/**
 * The option groups of node services, each declared once (one group a file): {@link NodeServiceProps},
 * {@link ContainerSpec} and every preset's props are composed of them by interface inheritance. Next to each group is
 * its runtime shape (the type of every field, checked at the boundary for callers in plain JavaScript or other
 * languages).
 */

export { poolShape } from './elements';
export * from './metadata';
export * from './placement';
export * from './rollout';
export { OverrideOptions } from './overrides';
export * from './pod';
export * from './network-access';
export * from './container-process';
export * from './container';
export * from './privilege';
export * from './container-security';
export * from './health-endpoint';
export * from './service-port';
export * from './state-dir';
export * from './container-spec';
export { WindowsPodOptions } from './windows';
export * from './node-service';
export * from './preset';
