// The kinds of node service. The public constants of their helper modules (cni-agent, cni-installer, csi-sidecars,
// csi-driver, security-modes) are named by src/index.ts straight from those modules, so no name is listed twice.
export { NodeServicePresetProps } from './common';
export * from './log-agent';
export * from './monitoring-agent';
export * from './cni-plugin';
export * from './csi-node';
export * from './security-agent';
export * from './gpu-monitor';
