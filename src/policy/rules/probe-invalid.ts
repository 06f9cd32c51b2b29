import { portReferenceError } from '../../k8s';
import { asArray, isObject, jsonPath, portNameErrorOf, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const COUNTERS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

/** Checks one probe of the container at `containerPath` (paths are built only for findings). */
function probeProblems(kind: (typeof PROBES)[number], probe: any, containerPath: string, out: RuleFinding[]): void {
  if (!isObject(probe)) {
    out.push({ path: jsonPath(containerPath, kind), message: `${kind} must be an object (has ${show(probe)})` });
    return;
  }
  let handlerCount = 0;
  for (const h of HANDLERS) if (probe[h] !== undefined && probe[h] !== null) handlerCount++;
  if (handlerCount === 0)
    out.push({ path: jsonPath(containerPath, kind), message: `${kind} has no handler (set one of exec, httpGet, tcpSocket, grpc)` });
  if (handlerCount > 1) {
    const handlers = HANDLERS.filter((h) => probe[h] !== undefined && probe[h] !== null);
    out.push({ path: jsonPath(containerPath, kind), message: `${kind} sets ${handlers.join(' and ')}; exactly one handler is allowed` });
  }
  for (const field of COUNTERS) {
    const v = probe[field];
    if (v !== undefined && v !== null && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
      out.push({ path: jsonPath(containerPath, kind, field), message: `${kind}.${field} ${show(v)} must be a non-negative integer` });
    }
  }
  if (kind !== 'readinessProbe' && probe.successThreshold !== undefined && probe.successThreshold !== 0 && probe.successThreshold !== 1) {
    out.push({
      path: jsonPath(containerPath, kind, 'successThreshold'),
      message: `${kind}.successThreshold ${show(probe.successThreshold)} must be 1`,
    });
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (grace !== undefined && grace !== null) {
    if (kind === 'readinessProbe') {
      out.push({
        path: jsonPath(containerPath, kind, 'terminationGracePeriodSeconds'),
        message: 'readinessProbe must not set terminationGracePeriodSeconds',
      });
    } else if (!(typeof grace === 'number' && Number.isInteger(grace) && grace > 0)) {
      out.push({
        path: jsonPath(containerPath, kind, 'terminationGracePeriodSeconds'),
        message: `${kind}.terminationGracePeriodSeconds ${show(grace)} must be a positive integer`,
      });
    }
  }
  if (isObject(probe.httpGet)) {
    const err = portReferenceError(probe.httpGet.port, portNameErrorOf);
    if (err) out.push({ path: jsonPath(containerPath, kind, 'httpGet', 'port'), message: `${kind}.httpGet ${err}` });
    const scheme = probe.httpGet.scheme;
    // an empty scheme is defaulted to HTTP before validation (SetDefaults_HTTPGetAction)
    if (scheme !== undefined && scheme !== null && scheme !== '' && scheme !== 'HTTP' && scheme !== 'HTTPS') {
      out.push({
        path: jsonPath(containerPath, kind, 'httpGet', 'scheme'),
        message: `${kind}.httpGet.scheme ${show(scheme)} is not HTTP or HTTPS`,
      });
    }
  }
  if (isObject(probe.tcpSocket)) {
    const err = portReferenceError(probe.tcpSocket.port, portNameErrorOf);
    if (err) out.push({ path: jsonPath(containerPath, kind, 'tcpSocket', 'port'), message: `${kind}.tcpSocket ${err}` });
  }
  if (isObject(probe.grpc)) {
    const port = probe.grpc.port;
    if (!(typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535)) {
      out.push({
        path: jsonPath(containerPath, kind, 'grpc', 'port'),
        message: `${kind}.grpc.port ${show(port)} must be a port number from 1 to 65535`,
      });
    }
  }
  if (isObject(probe.exec) && asArray(probe.exec.command).length === 0) {
    out.push({ path: jsonPath(containerPath, kind, 'exec', 'command'), message: `${kind}.exec.command must not be empty` });
  }
}

/** Probe handlers and fields as the API server validates them. */
export const probeInvalid = defineRule({
  id: 'probe-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Probes must be well-formed',
  rationale:
    'Each probe needs exactly one handler (exec, httpGet, tcpSocket, grpc) with a valid port; counters are non-negative; liveness and startup probes need successThreshold 1; readiness probes may not set terminationGracePeriodSeconds; init containers (other than restartable sidecars) may not have probes.',
  fix: 'Keep one handler per probe, refer to a port by number or by a valid port name, and use successThreshold: 1 for liveness and startup probes.',
  example:
    'readinessProbe:\n  httpGet: {path: /api/v1/health, port: http}\n  periodSeconds: 10\nlivenessProbe:\n  httpGet: {path: /, port: http}\n  successThreshold: 1',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      for (const kind of PROBES) {
        const probe = c.container[kind];
        if (probe === undefined || probe === null) continue;
        if (c.init && !c.sidecar) {
          out.push({
            path: jsonPath(c.path, kind),
            message: `init container '${c.name}' may not have a ${kind} (only restartPolicy: Always sidecars may)`,
          });
          continue;
        }
        probeProblems(kind, probe, c.path, out);
      }
    }
    return out;
  },
});
