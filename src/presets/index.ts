export { NodeServicePresetProps } from './common';
export * from './log-agent';
export * from './monitoring-agent';
export * from './cni-plugin';
export { CNI_PLUGIN_CAPABILITIES, CNI_PLUGIN_RESOURCES } from './cni-agent';
export { CNI_BIN_MOUNT_PATH, CNI_CONF_MOUNT_PATH, CNI_INSTALLER_RESOURCES, CniInstaller } from './cni-installer';
export * from './csi-node';
export {
  CSI_HEALTH_PORT,
  CSI_LIVENESS_PROBE_IMAGE,
  CSI_NODE_DRIVER_REGISTRAR_IMAGE,
  CSI_REGISTRAR_HEALTH_PORT,
  CSI_SIDECAR_RESOURCES,
  CSI_SOCKET_DIR,
} from './csi-sidecars';
export { CSI_DRIVER_RESOURCES } from './csi-driver';
export * from './security-agent';
export {
  COMPLIANCE_SCANNER_RESOURCES,
  RUNTIME_SENSOR_CAPABILITIES,
  SECURITY_AGENT_HOST_ROOT,
  SECURITY_AGENT_RESOURCES,
} from './security-modes';
export * from './gpu-monitor';
