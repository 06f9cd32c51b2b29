import { isContainerRuntimeSocket } from '../../src/policy/kinds';
import { containersOf } from './synth';

/**
 * The Kubernetes API and least-privilege rules every node service must meet (issue bars for presets and dist/):
 * privileged containers admissible, Bidirectional only on privileged containers, no writable runtime socket, no
 * namespace on cluster-scoped RBAC, no wildcard or Secrets in a ClusterRole. Returns the violations.
 */
export function apiRuleViolations(objects: any[]): string[] {
  const out: string[] = [];
  for (const ds of objects.filter((o) => o.kind === 'DaemonSet')) {
    const volumes = new Map<string, any>((ds.spec.template.spec.volumes ?? []).map((v: any) => [v.name, v]));
    for (const c of containersOf(ds)) {
      // A Windows HostProcess pod sets its security on the pod (windowsOptions), not on its containers.
      const privileged = c.securityContext?.privileged === true;
      if (privileged && c.securityContext?.allowPrivilegeEscalation === false)
        out.push(`${c.name}: allowPrivilegeEscalation false beside privileged`);
      for (const m of c.volumeMounts ?? []) {
        if (m.mountPropagation === 'Bidirectional' && !privileged)
          out.push(`${c.name}: Bidirectional mount ${m.mountPath} on an unprivileged container`);
        const hostPath = volumes.get(m.name)?.hostPath?.path;
        if (hostPath && isContainerRuntimeSocket(hostPath) && m.readOnly !== true)
          out.push(`${c.name}: runtime socket ${hostPath} writable`);
      }
    }
  }
  for (const o of objects.filter((x) => x.kind === 'ClusterRole' || x.kind === 'ClusterRoleBinding')) {
    if (o.metadata.namespace !== undefined) out.push(`${o.kind} ${o.metadata.name} carries a namespace`);
    for (const r of o.rules ?? []) {
      const words = [...r.apiGroups, ...r.resources, ...r.verbs];
      if (words.some((w: string) => w.includes('*'))) out.push(`${o.metadata.name}: wildcard in ${JSON.stringify(r)}`);
      if (r.resources.some((x: string) => x === 'secrets' || x.startsWith('secrets/'))) out.push(`${o.metadata.name}: touches secrets`);
    }
  }
  return out;
}
