import { PodSecurityControl, PodSecurityLevel, under } from './control';

const HOST_NAMESPACES = ['hostNetwork', 'hostPID', 'hostIPC'] as const;

/** `hostNamespaces`: no host network, PID or IPC namespace. @internal */
export const hostNamespaces: PodSecurityControl = {
  id: 'hostNamespaces',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const set = HOST_NAMESPACES.filter((f) => pod.spec[f] === true);
    if (set.length === 0) return undefined;
    return { summary: set.map((f) => `${f}=true`).join(', '), fields: set.map((f) => `${under(pod)}${f}`) };
  },
  cel: {
    policy: 'host-access',
    variable: 'hostNamespaces',
    what: 'host namespaces',
    expression: HOST_NAMESPACES.map((f) => `(has(variables.podSpec.${f}) && variables.podSpec.${f} == true ? ['${f}'] : [])`).join(' + '),
  },
};
