import { PORT_PROTOCOLS } from '../../k8s';
import { asObject, jsonPath, portNameErrorOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

function isPort(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

/** Container ports: numbers in range, known protocols, valid names, no host port used twice. */
export const portInvalid = defineRule({
  id: 'port-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Container ports must be valid and host ports unique',
  rationale:
    'containerPort is required and must be 1-65535, hostPort 0-65535, protocol TCP, UDP or SCTP, and a port name an IANA service name (at most 15 characters of [-a-z0-9] with a letter, no "--"). The same hostPort/protocol/hostIP may not be used twice among the containers (each init container is checked on its own).',
  fix: 'Use integer port numbers in range, a valid protocol, names such as `metrics` or `http-probe`, and distinct host ports.',
  example: 'ports:\n  - name: metrics\n    containerPort: 9100\n    protocol: TCP',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    // Long-running containers share the node's ports; each init container runs alone, so it is checked by itself.
    const shared = new Map<string, string>();
    for (const c of view.containers) {
      const hostPorts = c.init ? new Map<string, string>() : shared;
      c.ports.forEach((raw, i) => {
        const port = asObject(raw);
        if (!isPort(port.containerPort)) {
          out.push({
            path: jsonPath(c.path, 'ports', i, 'containerPort'),
            message: `container '${c.name}' containerPort ${show(port.containerPort)} must be an integer from 1 to 65535`,
          });
        }
        const hostPort = port.hostPort;
        if (hostPort !== undefined && hostPort !== null && hostPort !== 0 && !isPort(hostPort)) {
          out.push({
            path: jsonPath(c.path, 'ports', i, 'hostPort'),
            message: `container '${c.name}' hostPort ${show(hostPort)} must be an integer from 0 to 65535`,
          });
        }
        // defaulting comes first: a missing or empty protocol is TCP (SetDefaults_ContainerPort)
        const protocol = port.protocol === undefined || port.protocol === null || port.protocol === '' ? 'TCP' : port.protocol;
        if (!PORT_PROTOCOLS.includes(protocol)) {
          out.push({
            path: jsonPath(c.path, 'ports', i, 'protocol'),
            message: `container '${c.name}' protocol ${show(protocol)} is not one of TCP, UDP, SCTP`,
          });
        }
        if (port.name !== undefined && port.name !== null && port.name !== '') {
          const err = typeof port.name === 'string' ? portNameErrorOf(port.name) : 'must be a string';
          if (err) out.push({ path: jsonPath(c.path, 'ports', i, 'name'), message: `port name ${show(port.name)} ${err}` });
        }
        if (isPort(hostPort)) {
          const key = `${hostPort}/${protocol}/${port.hostIP ?? ''}`;
          const first = hostPorts.get(key);
          if (first !== undefined) {
            out.push({
              path: jsonPath(c.path, 'ports', i, 'hostPort'),
              message: `hostPort ${hostPort}/${protocol} is already used by ${first}`,
            });
          } else {
            hostPorts.set(key, jsonPath(c.path, 'ports', i));
          }
        }
      });
    }
    return out;
  },
});
