/**
 * Probes, the stop hook and the security context of an input container as `ContainerSpec` props. A probe field the
 * factories have no option for (`successThreshold`, HTTP headers) is left for the escape hatch.
 */

import { asArray, asObject, isObject } from '../k8s/json';
import { ContainerContext, constantName } from './map-container';
import { call, Expr, lit, obj, prop, Property } from './model';

const TIMING_KEYS = ['initialDelaySeconds', 'periodSeconds', 'timeoutSeconds', 'failureThreshold'] as const;

function timing(probe: Record<string, any>, extra: Array<Property | undefined> = []): Expr {
  return obj([...extra, ...TIMING_KEYS.map((k) => prop(k, typeof probe[k] === 'number' ? lit(probe[k]) : undefined))]);
}

/** A probe as a factory call, or `undefined` when no factory makes it. */
function probeExpr(value: unknown, name: string, ctx: ContainerContext): Expr | undefined {
  if (!isObject(value)) return undefined;
  const probe = value;
  const port = (p: unknown) => (typeof p === 'number' ? ctx.number(constantName(name, 'probe', 'port'), p) : undefined);
  if (isObject(probe.httpGet)) {
    const h = probe.httpGet;
    const path = lit(typeof h.path === 'string' ? h.path : '/');
    const options = timing(probe, [
      prop('host', typeof h.host === 'string' ? lit(h.host) : undefined),
      prop('https', h.scheme === 'HTTPS' ? lit(true) : undefined),
    ]);
    if (typeof h.port === 'string') return call('Probe', 'httpGet', path, lit(h.port), options);
    const p = port(h.port);
    return p !== undefined ? call('Probe', 'httpGetOnPort', path, p, options) : undefined;
  }
  if (isObject(probe.tcpSocket)) {
    const t = probe.tcpSocket;
    if (typeof t.port === 'string') return call('Probe', 'tcpSocket', lit(t.port), timing(probe));
    const p = port(t.port);
    return p !== undefined ? call('Probe', 'tcpSocketOnPort', p, timing(probe)) : undefined;
  }
  if (isObject(probe.exec) && Array.isArray(probe.exec.command)) return call('Probe', 'exec', lit(probe.exec.command), timing(probe));
  if (isObject(probe.grpc)) {
    const p = port(probe.grpc.port);
    if (p === undefined) return undefined;
    const service = typeof probe.grpc.service === 'string' ? lit(probe.grpc.service) : lit(undefined);
    return call('Probe', 'grpc', p, service, timing(probe));
  }
  return undefined;
}

/** The probes and stop hook of a container. */
export function lifecycleProps(container: Record<string, any>, ctx: ContainerContext): Property[] {
  const name = String(container.name);
  const preStop = asObject(asObject(asObject(container.lifecycle).preStop).exec).command;
  return [
    prop('readiness', probeExpr(container.readinessProbe, `${name}-readiness`, ctx)),
    prop('liveness', probeExpr(container.livenessProbe, `${name}-liveness`, ctx)),
    prop('startup', probeExpr(container.startupProbe, `${name}-startup`, ctx)),
    prop('preStop', Array.isArray(preStop) && preStop.every((w) => typeof w === 'string') ? lit(preStop) : undefined),
  ].filter((p): p is Property => p !== undefined);
}

/** `privileged`, added capabilities, user, root filesystem and seccomp profile of a container. */
export function securityProps(container: Record<string, any>, ctx: ContainerContext): Property[] {
  const sc = asObject(container.securityContext);
  const out: Array<Property | undefined> = [];
  if (sc.privileged === true) {
    out.push(
      prop('privileged', lit(true), 'REVIEW: the input runs this container privileged; confirm it needs to, or remove both lines.'),
      prop('privilegedReason', lit(`imported from ${ctx.file}: ${ctx.path}.securityContext.privileged is true`)),
    );
  }
  const add = asArray(asObject(sc.capabilities).add).filter((c): c is string => typeof c === 'string');
  if (add.length > 0) {
    const names = add.map((c) => c.replace(/^CAP_/, ''));
    out.push(
      prop(
        'capabilities',
        lit(names),
        `REVIEW: capabilities added by the input (${ctx.file}: ${ctx.path}.securityContext.capabilities.add); confirm each.`,
      ),
    );
  }
  for (const key of ['runAsUser', 'runAsGroup'] as const) out.push(prop(key, typeof sc[key] === 'number' ? lit(sc[key]) : undefined));
  out.push(prop('runAsNonRoot', typeof sc.runAsNonRoot === 'boolean' ? lit(sc.runAsNonRoot) : undefined));
  // The input's root filesystem is writable unless it says otherwise; keep it so, for the reviewer to tighten.
  if (sc.readOnlyRootFilesystem !== true && sc.privileged !== true) {
    out.push(
      prop(
        'readOnlyRootFilesystem',
        lit(false),
        'REVIEW: the input leaves the root filesystem writable; set true (with Mount.emptyDir for scratch space) once the agent is known not to write to it.',
      ),
    );
  }
  const seccomp = asObject(sc.seccompProfile);
  if (seccomp.type === 'Localhost' && typeof seccomp.localhostProfile === 'string') {
    out.push(prop('seccompProfile', call('SeccompProfile', 'localhost', lit(seccomp.localhostProfile))));
  } else if (seccomp.type === 'Unconfined') {
    out.push(
      prop(
        'seccompProfile',
        call('SeccompProfile', 'unconfined', lit(`imported from ${ctx.file}: ${ctx.path}.securityContext.seccompProfile is Unconfined`)),
        'REVIEW: the input turns the syscall filter off; confirm it must.',
      ),
    );
  }
  return out.filter((p): p is Property => p !== undefined);
}
