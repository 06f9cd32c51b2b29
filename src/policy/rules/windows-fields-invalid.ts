import { asObject, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Pod-level fields the API server rejects with `spec.os.name: windows` (validateWindows, 1.28). */
const LINUX_POD_FIELDS = [
  'seLinuxOptions',
  'seccompProfile',
  'runAsUser',
  'runAsGroup',
  'fsGroup',
  'fsGroupChangePolicy',
  'supplementalGroups',
  'sysctls',
] as const;
/** Container-level fields the API server rejects with `spec.os.name: windows`. */
const LINUX_CONTAINER_FIELDS = [
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
] as const;

const set = (v: unknown) => v !== undefined && v !== null;

/** Windows pods as the API server validates them: no Linux-only fields with spec.os.name windows; HostProcess rules. */
export const windowsFieldsInvalid = defineRule({
  id: 'windows-fields-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Windows pods: no Linux-only fields, HostProcess on the host network and for every container',
  rationale:
    'With spec.os.name windows the 1.28 API server rejects Linux-only fields: seLinuxOptions, seccompProfile, runAsUser/runAsGroup, fsGroup, supplementalGroups, sysctls and hostUsers on the pod; capabilities, privileged, allowPrivilegeEscalation, readOnlyRootFilesystem, procMount, seLinuxOptions, seccompProfile, runAsUser/runAsGroup on containers. A HostProcess pod (windowsOptions.hostProcess) must use the host network, and when any container is HostProcess all must be (a container may not set hostProcess: false under a HostProcess pod).',
  fix: 'Remove the Linux-only fields from Windows pods (use windowsOptions.runAsUserName), set hostNetwork: true for HostProcess pods, and make every container HostProcess (set it once on the pod).',
  example:
    'spec:\n  template:\n    spec:\n      os: {name: windows}\n      hostNetwork: true\n      securityContext:\n        windowsOptions: {hostProcess: true, runAsUserName: "NT AUTHORITY\\\\SYSTEM"}',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    if (view.osWindows) {
      for (const field of LINUX_POD_FIELDS) {
        if (
          set(view.podSecurityContext[field]) &&
          !(Array.isArray(view.podSecurityContext[field]) && view.podSecurityContext[field].length === 0)
        ) {
          out.push({
            path: jsonPath(view.podPath, 'securityContext', field),
            message: `securityContext.${field} is Linux-only and rejected with spec.os.name windows`,
          });
        }
      }
      if (set(view.pod.hostUsers))
        out.push({ path: jsonPath(view.podPath, 'hostUsers'), message: 'hostUsers is Linux-only and rejected with spec.os.name windows' });
      for (const c of view.containers) {
        for (const field of LINUX_CONTAINER_FIELDS) {
          if (set(c.securityContext[field])) {
            out.push({
              path: jsonPath(c.path, 'securityContext', field),
              message: `container '${c.name}' securityContext.${field} is Linux-only and rejected with spec.os.name windows`,
            });
          }
        }
      }
    }
    const hostProcess = view.containers.filter((c) => c.hostProcess);
    if (hostProcess.length === 0) return out;
    if (view.pod.hostNetwork !== true) {
      out.push({
        path: jsonPath(view.podPath, 'hostNetwork'),
        message: `HostProcess containers (${hostProcess.map((c) => `'${c.name}'`).join(', ')}) need hostNetwork: true`,
      });
    }
    for (const c of view.containers) {
      if (c.hostProcess) continue;
      const own = asObject(c.securityContext.windowsOptions).hostProcess;
      out.push({
        path: jsonPath(c.path, 'securityContext', 'windowsOptions', 'hostProcess'),
        message:
          own === false
            ? `container '${c.name}' sets hostProcess: false in a HostProcess pod`
            : `container '${c.name}' is not HostProcess while ${hostProcess.map((h) => `'${h.name}'`).join(', ')} is: all containers of a pod must be`,
      });
    }
    return out;
  },
});
