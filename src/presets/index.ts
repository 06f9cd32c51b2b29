export * from './common';
export * from './log-agent';
export * from './monitoring-agent';
