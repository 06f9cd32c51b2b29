export { Wire, WireContainer, WireDaemonSetSpec, WirePodSpec, WirePodTemplateSpec } from '../k8s/wire';
