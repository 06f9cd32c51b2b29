export { NodeServicePresetProps } from './common';
export * from './log-agent';
export * from './monitoring-agent';
export * from './cni-plugin';
export * from './csi-node';
export * from './security-agent';
export * from './gpu-monitor';
