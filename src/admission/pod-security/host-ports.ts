import { offendingContainers } from '../cel';
import { containersOf, containerWords, isSet, list, obj, PodSecurityControl, PodSecurityLevel } from './control';

const HOST_PORT = 'has(p.hostPort) && p.hostPort != 0';

/** `hostPorts`: no host port (built-in Pod Security Admission has no list of known ports). @internal */
export const hostPorts: PodSecurityControl = {
  id: 'hostPorts',
  level: PodSecurityLevel.BASELINE,
  version: 'v1.0',
  check(pod) {
    const ports: string[] = [];
    const names: string[] = [];
    const fields: string[] = [];
    for (const c of containersOf(pod)) {
      let found = false;
      list(c.container.ports).forEach((p, i) => {
        const hostPort = obj(p).hostPort;
        if (isSet(hostPort) && hostPort !== 0) {
          found = true;
          ports.push(String(hostPort));
          fields.push(`${c.path}.ports[${i}].hostPort`);
        }
      });
      if (found) names.push(c.name);
    }
    if (fields.length === 0) return undefined;
    return { summary: `hostPort ${[...new Set(ports)].join(', ')} (${containerWords(names)})`, fields };
  },
  cel: {
    policy: 'host-access',
    variable: 'hostPorts',
    what: 'host ports',
    expression: offendingContainers(
      `has(c.ports) && c.ports.exists(p, ${HOST_PORT})`,
      `c.name + ' uses ' + c.ports.filter(p, ${HOST_PORT}).map(p, string(p.hostPort)).join('+')`,
    ),
  },
};
