import { isContainerRuntimeSocketPath, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** A writable mount of a container runtime socket. */
export const containerRuntimeSocketWritable = defineRule({
  id: 'container-runtime-socket-writable',
  severity: Severity.ERROR,
  category: RuleCategory.HOST_ACCESS,
  title: 'Container runtime socket mounted writable',
  rationale:
    'A writable runtime socket is root on the node: the container can create privileged containers and read every secret mounted on the node. This is a hard line (error); even runtime-security agents only read the socket.',
  fix: 'Mount the socket with `readOnly: true`, or remove the mount.',
  example: 'volumeMounts:\n  - {name: containerd-sock, mountPath: /host/run/containerd/containerd.sock, readOnly: true}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const hp of view.hostPaths) {
      if (hp.hostPath === '' || !isContainerRuntimeSocketPath(hp.hostPath)) continue;
      for (const m of hp.mounts) {
        if (!m.writable) continue;
        out.push({
          path: jsonPath(m.path, 'readOnly'),
          message: `container '${m.container.name}' mounts the container runtime socket path '${hp.hostPath}' writable`,
        });
      }
    }
    return out;
  },
});
