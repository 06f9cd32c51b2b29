import { CONTAINER_RUNTIME_SOCKETS } from '../kinds';
import { isContainerRuntimeSocketPath, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Any mount of a container runtime socket (or the directory holding it). */
export const containerRuntimeSocket = defineRule({
  id: 'container-runtime-socket',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Container runtime socket mounted',
  rationale: `The container runtime socket (${CONTAINER_RUNTIME_SOCKETS.slice(0, 3).join(', ')}…) controls every container on the node: whoever can talk to it can start a privileged container. Only runtime-security agents have a reason to read it.`,
  fix: 'Remove the socket mount (read container metadata from the kubelet or the log files instead), or suppress with the reason the agent needs it.',
  example: 'Mount the log directories (/var/log/pods, /var/log/containers) instead of the runtime socket.',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      if (hp.hostPath === '' || !isContainerRuntimeSocketPath(hp.hostPath)) continue;
      out.push({
        path: jsonPath(hp.path, 'hostPath', 'path'),
        message: `volume '${hp.name}' mounts the container runtime socket path '${hp.hostPath}'`,
      });
    }
    return out;
  },
});
