import { CONTAINER_RUNTIME_SOCKETS, kindsWhere } from '../kinds';
import { isContainerRuntimeSocketPath, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Any mount of a container runtime socket (or the directory holding it). */
export const containerRuntimeSocket = defineRule({
  id: 'container-runtime-socket',
  severity: Severity.WARNING,
  category: RuleCategory.HOST_ACCESS,
  title: 'Container runtime socket mounted',
  rationale: `Whoever can connect to the container runtime socket (${CONTAINER_RUNTIME_SOCKETS.slice(0, 4).join(', ')}…, or a whole /run or /var/run) controls the node: it can start a privileged container with the host's root file system. Any mount gives that, read-only included: a read-only bind mount does not restrict connect(2) on a UNIX socket (only write permission on the socket inode is checked), so \`readOnly: true\` changes nothing. Not reported when every container that mounts it is privileged (the privileged finding covers it).`,
  fix: 'Remove the socket mount (read container metadata from the kubelet API or the log files instead), or suppress with the reason the agent needs the runtime.',
  example: 'Mount the log directories (/var/log/pods, /var/log/containers) instead of the runtime socket.',
  kindSeverities: [
    {
      kinds: kindsWhere((p) => p.runtimeSocket),
      severity: Severity.INFO,
      reason: 'Runtime-security agents (Falco, Tetragon) read container metadata from the runtime by design; advice only.',
    },
  ],
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      if (hp.matchPath === '' || !isContainerRuntimeSocketPath(hp.matchPath)) continue;
      if (hp.mounts.length > 0 && hp.mounts.every((m) => m.container.fullHostAccess)) continue;
      out.push({
        path: jsonPath(hp.path, 'hostPath', 'path'),
        message: `volume '${hp.name}' mounts the container runtime socket path '${hp.hostPath}'${hp.mounts.length > 0 ? ` (into ${[...new Set(hp.mounts.map((m) => `'${m.container.name}'`))].join(', ')})` : ''}: whoever connects to it controls the node, read-only or not`,
      });
    }
    return out;
  },
});
