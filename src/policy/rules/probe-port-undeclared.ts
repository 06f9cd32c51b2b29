import { asArray, asObject, isObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** Probes that name a port the container does not declare. */
export const probePortUndeclared = defineRule({
  id: 'probe-port-undeclared',
  severity: Severity.ERROR,
  category: RuleCategory.RELIABILITY,
  title: 'Probe names a port the container does not declare',
  rationale:
    "A probe that refers to a port by name (httpGet.port or tcpSocket.port: http) is resolved against the same container's ports when it runs. The API server accepts any well-formed name, but the kubelet cannot resolve an undeclared one, so the probe always fails: readiness never passes (the rollout stalls on the first node) and liveness restarts the container forever.",
  fix: "Declare the port by that name in the container's `ports`, or probe the port number.",
  example: 'ports:\n  - {name: http, containerPort: 2020}\nreadinessProbe:\n  httpGet: {path: /api/v1/health, port: http}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const names = new Set(c.ports.map((p) => asObject(p).name).filter((n) => typeof n === 'string'));
      for (const kind of PROBES) {
        const probe = c.container[kind];
        if (!isObject(probe)) continue;
        for (const handler of ['httpGet', 'tcpSocket'] as const) {
          const port = asObject(probe[handler]).port;
          if (typeof port !== 'string' || /^\d+$/.test(port) || names.has(port)) continue;
          const declared =
            asArray(c.container.ports).length === 0
              ? 'declares no ports'
              : `declares ${[...names].map((n) => `'${n}'`).join(', ') || 'only unnamed ports'}`;
          out.push({
            path: jsonPath(c.path, kind, handler, 'port'),
            message: `container '${c.name}' ${kind} uses port '${port}', but the container ${declared}`,
          });
        }
      }
    }
    return out;
  },
});
