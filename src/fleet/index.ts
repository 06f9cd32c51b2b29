export { Fleet, FleetCluster, FleetClusterOptions, FleetProps, FleetServicesOptions, IFleetServices } from './fleet';
export { ArgoCdOptions, FluxOptions, GitOps } from './gitops';
