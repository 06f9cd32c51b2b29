/**
 * The agent container of a {@link SecurityAgent}: its health probes, and the resources, capabilities and host paths of
 * its mode.
 */

import { ContainerSpec, EnvField, Probe } from '../core/container';
import { madeFrom } from '../k8s/problems';
import { HostPath } from '../core/host-path';
import type { SecurityAgentProps } from './security-agent';
import {
  COMPLIANCE_SCANNER_RESOURCES,
  RUNTIME_SENSOR_CAPABILITIES,
  SECURITY_AGENT_HOST_ROOT,
  SECURITY_AGENT_RESOURCES,
} from './security-modes';

/** The `agent` container, a runtime sensor when `runtime` (else a compliance scanner), mounting `hostPaths`. @internal */
export function securityAgentContainer(props: SecurityAgentProps, runtime: boolean, hostPaths: HostPath[]): ContainerSpec {
  const healthPath = props.healthPath ?? '/healthz';
  const agent: ContainerSpec = {
    name: 'agent',
    image: props.image,
    env: runtime ? { HOST_ROOT: SECURITY_AGENT_HOST_ROOT } : undefined,
    fieldEnv: { NODE_NAME: EnvField.NODE_NAME },
    ports: [madeFrom({ name: 'health', containerPort: props.healthPort ?? 8765 }, 'healthPort', 'containerPort')],
    startup: Probe.httpGet(healthPath, 'health', {
      initialDelaySeconds: 3,
      periodSeconds: 5,
      timeoutSeconds: 5,
      failureThreshold: 20,
    }),
    readiness: Probe.httpGet(healthPath, 'health', { periodSeconds: 15, timeoutSeconds: 5 }),
    liveness: Probe.httpGet(healthPath, 'health', { periodSeconds: 15, timeoutSeconds: 5, failureThreshold: 3 }),
    resources: runtime ? SECURITY_AGENT_RESOURCES : COMPLIANCE_SCANNER_RESOURCES,
    hostPaths,
    capabilities: runtime ? [...RUNTIME_SENSOR_CAPABILITIES] : [],
    privileged: props.privileged === true,
    privilegedReason: props.privilegedReason,
    runAsUser: 0,
    runAsNonRoot: false,
  };
  madeFrom(agent, 'privileged', 'privileged');
  return madeFrom(agent, 'privilegedReason', 'privilegedReason');
}
