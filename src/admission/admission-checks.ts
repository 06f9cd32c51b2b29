/**
 * The admission checks that are not Pod Security controls, each defined once: the JS check (what the synth-time and
 * lint evaluation of the guardrails run) beside the CEL the admission policy renders. The Pod Security controls are
 * in `pod-security/`, one file each, with the same two halves.
 */

import { celStringList, CONTAINER, containerSets, offendingContainers } from './cel';
import { imageAllowedByRegistries } from './image-reference';
import { CelCheck, CheckFinding, containersOf, list, obj, PodView, quote, securityContext, under } from './pod-security/index';

/** One admission check: its id, the JS check, and the CEL that enforces it. @internal */
export interface AdmissionCheck {
  /** The Pod Security control id, or the check's own id (`addedCapabilities`, `deniedImages`, …). */
  readonly id: string;
  /** The violation, or undefined when the pod complies. */
  check(pod: PodView): CheckFinding | undefined;
  /** The CEL the admission policy renders. */
  readonly cel: CelCheck;
  /** How to fix a violation, when the policy's own fix is not specific enough. */
  readonly fix?: string;
}

/** Host access: no added capability at all (stricter than `capabilities_baseline`). @internal */
export const addedCapabilities: AdmissionCheck = {
  id: 'addedCapabilities',
  check(pod) {
    const bad = containersOf(pod).filter((c) => list(obj(securityContext(c).capabilities).add).length > 0);
    if (bad.length === 0) return undefined;
    return {
      summary: `capabilities.add ${bad.map((c) => `${list(obj(securityContext(c).capabilities).add).join('+')} (container ${JSON.stringify(c.name)})`).join(', ')}`,
      fields: bad.map((c) => `${c.path}.securityContext.capabilities.add`),
    };
  },
  cel: {
    policy: 'host-access',
    variable: 'addedCapabilities',
    what: 'added capabilities',
    expression: offendingContainers(
      `${containerSets('capabilities.add')} && size(${CONTAINER('capabilities.add')}) > 0`,
      `c.name + ' adds ' + ${CONTAINER('capabilities.add')}.join('+')`,
    ),
  },
};

/** Tenant pods: only the tenant volume types (hostPath is host access, denied by the host-access policy). @internal */
export function deniedVolumes(tenantVolumeTypes: readonly string[]): AdmissionCheck {
  return {
    id: 'volumeTypes',
    check(pod) {
      const bad = list(pod.spec.volumes)
        .map((v, i) => ({ v: obj(v), i }))
        .filter(({ v }) => !('hostPath' in v) && Object.keys(v).some((k) => k !== 'name' && !tenantVolumeTypes.includes(k)));
      if (bad.length === 0) return undefined;
      return {
        summary: `volumes ${bad
          .map(
            ({ v }) =>
              `${String(v.name)}=${Object.keys(v)
                .filter((k) => k !== 'name')
                .join('+')}`,
          )
          .join(', ')}`,
        fields: bad.map(({ i }) => `${under(pod)}volumes[${i}]`),
      };
    },
    cel: {
      policy: 'tenant-pod-security',
      variable: 'deniedVolumes',
      what: `volume types outside ${tenantVolumeTypes.join(', ')}`,
      expression:
        `variables.volumes.filter(v, !has(v.hostPath) && !v.all(k, k == 'name' || k in ${celStringList(tenantVolumeTypes)}))` +
        ".map(v, v.name + '=' + v.filter(k, k != 'name').join('+'))",
    },
  };
}

/** Tenant pods: no `system-*` priority class (they preempt node agents). @internal */
export const systemPriorityClass: AdmissionCheck = {
  id: 'systemPriorityClass',
  check(pod) {
    const pc = pod.spec.priorityClassName;
    if (!(typeof pc === 'string' && pc.startsWith('system-'))) return undefined;
    return { summary: `priorityClassName ${JSON.stringify(pc)}`, fields: [`${under(pod)}priorityClassName`] };
  },
  cel: {
    policy: 'tenant-pod-security',
    variable: 'systemPriorityClass',
    what: 'the system-* priority classes',
    expression:
      "has(variables.podSpec.priorityClassName) && variables.podSpec.priorityClassName.startsWith('system-') ? [variables.podSpec.priorityClassName] : []",
  },
};

/**
 * CEL for "the image reference's repository, normalised as container runtimes do" (distribution/reference): digest
 * and tag removed; the first path element is the registry host when it contains '.' or ':', is `localhost` or has
 * upper-case letters, else the host is `docker.io`; `index.docker.io` is `docker.io`; a one-element Docker Hub
 * name is `docker.io/library/<name>`. Mirrors `runtimeImageRepository`. @internal
 */
export const IMAGE_VARIABLES: readonly { readonly name: string; readonly expression: string }[] = [
  { name: 'images', expression: "variables.allContainers.map(c, has(c.image) ? c.image : '')" },
  { name: 'imageNames', expression: "variables.images.map(i, i.split('@')[0])" },
  {
    name: 'imageRepositories',
    expression:
      "variables.imageNames.map(n, n.matches(':[^/]*$') ? n.substring(0, n.lastIndexOf(':')) : n)" +
      ".map(r, r.matches('^([^/]*[.:A-Z][^/]*|localhost)/') ? r : 'docker.io/' + r)" +
      ".map(r, r.startsWith('index.docker.io/') ? 'docker.io/' + r.substring(16) : r)" +
      ".map(r, r.matches('^docker[.]io/[^/]*$') ? 'docker.io/library/' + r.substring(10) : r)",
  },
];

/** Trusted namespaces: every image from the registry allowlist (normalised prefixes). @internal */
export function deniedImages(allowed: readonly string[]): AdmissionCheck {
  return {
    id: 'registryAllowlist',
    fix: `add the image's registry to registryAllowlist (${allowed.join(', ')}), or pull the image from a registry on it`,
    check(pod) {
      const bad = containersOf(pod).filter(
        (c) => !imageAllowedByRegistries(typeof c.container.image === 'string' ? c.container.image : '', allowed),
      );
      if (bad.length === 0) return undefined;
      return {
        summary: `image ${bad.map((c) => `${JSON.stringify(String(c.container.image ?? ''))} (container ${JSON.stringify(c.name)})`).join(', ')}`,
        fields: bad.map((c) => `${c.path}.image`),
      };
    },
    cel: {
      policy: 'allowlists',
      variable: 'deniedImages',
      what: 'images from outside the registry allowlist',
      expression: `variables.imageRepositories.filter(r, !(${celStringList(allowed)}.exists(p, r == p || r.startsWith(p + '/'))))`,
    },
  };
}

/** Whether host path `p` lies within one of `allowed`, with no `..` element and no backslash (the CEL below). */
function hostPathAllowed(p: string, allowed: readonly string[]): boolean {
  return !p.includes('\\') && !/(^|\/)[.][.](\/|$)/.test(p) && allowed.some((a) => p === a || p.startsWith(a === '/' ? a : `${a}/`));
}

/** Trusted namespaces: every hostPath volume within the host-path allowlist (normalised paths). @internal */
export function deniedHostPaths(allowed: readonly string[]): AdmissionCheck {
  const p = 'v.hostPath.path';
  const celAllowed = `!${p}.contains('\\\\') && !${p}.matches('(^|/)[.][.](/|$)') && ${celStringList(allowed)}.exists(a, ${p} == a || ${p}.startsWith(a == '/' ? a : a + '/'))`;
  return {
    id: 'hostPathAllowlist',
    fix: `add the host path (or a parent) to hostPathAllowlist (${allowed.join(', ')}), or mount a path within it`,
    check(pod) {
      const bad = list(pod.spec.volumes)
        .map((v, i) => ({ v: obj(v), i }))
        .filter(
          ({ v }) => 'hostPath' in v && !(typeof obj(v.hostPath).path === 'string' && hostPathAllowed(obj(v.hostPath).path, allowed)),
        );
      if (bad.length === 0) return undefined;
      return {
        summary: `hostPath ${bad.map(({ v }) => `${JSON.stringify(String(obj(v.hostPath).path ?? ''))} (volume ${quote([String(v.name)])})`).join(', ')}`,
        fields: bad.map(({ i }) => `${under(pod)}volumes[${i}].hostPath.path`),
      };
    },
    cel: {
      policy: 'allowlists',
      variable: 'deniedHostPaths',
      what: 'hostPath volumes outside the host-path allowlist',
      expression: `variables.volumes.filter(v, has(v.hostPath) && !(has(v.hostPath.path) && ${celAllowed})).map(v, v.name + '=' + (has(v.hostPath.path) ? v.hostPath.path : ''))`,
    },
  };
}
