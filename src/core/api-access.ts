/**
 * Least-privilege Kubernetes API access for node services: a ServiceAccount per service, and a ClusterRole + binding
 * with exactly the listed permissions. Wildcards and Secrets are refused.
 */

import { checkArguments, list, opt, req, str } from '../k8s/shape';

/** Verbs that only read. */
export const READ_VERBS: readonly string[] = ['get', 'list', 'watch'];

/** A resource as RBAC names it: a lower-case plural, optionally with a subresource (`nodes/status`). */
const RESOURCE_NAME = /^[a-z][a-z0-9.-]*(\/[a-z][a-z0-9-]*)?$/;

const KNOWN_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** One permission on the Kubernetes API. Create with the static factories. */
export class ApiPermission {
  /** The read-only verbs (`READ_VERBS`): get, list, watch. */
  public static readonly READ_VERBS: string[] = [...READ_VERBS];

  /** Read-only access (`get`, `list`, `watch`) to `resources` in `apiGroup` (`''` is the core group). */
  public static read(resources: string[], apiGroup: string = ''): ApiPermission {
    checkArguments('ApiPermission.read', arguments, [
      ['resources', req(list(str))],
      ['apiGroup', opt(str)],
    ]);
    return new ApiPermission(apiGroup, resources, [...READ_VERBS]);
  }

  /** Access with explicit `verbs` to `resources` in `apiGroup`: use for the few writes a kind needs (e.g. `nodes/status` patch). */
  public static of(apiGroup: string, resources: string[], verbs: string[]): ApiPermission {
    checkArguments('ApiPermission.of', arguments, [
      ['apiGroup', req(str)],
      ['resources', req(list(str))],
      ['verbs', req(list(str))],
    ]);
    return new ApiPermission(apiGroup, resources, verbs);
  }

  /** The API group (`''` for core). */
  public readonly apiGroup: string;
  /** The resources (may include sub-resources such as `nodes/status`). */
  public readonly resources: string[];
  /** The verbs. */
  public readonly verbs: string[];

  private constructor(apiGroup: string, resources: string[], verbs: string[]) {
    this.apiGroup = apiGroup;
    this.resources = Array.isArray(resources) ? [...resources] : resources;
    this.verbs = Array.isArray(verbs) ? [...verbs] : verbs;
  }

  /** Why this permission is not least-privilege or not valid, or `undefined`. */
  public problem(): string | undefined {
    if (this.resources.length === 0) return 'names no resource';
    if (this.verbs.length === 0) return 'names no verb';
    if (this.apiGroup.includes('*') || this.resources.some((r) => r.includes('*')) || this.verbs.includes('*')) {
      return 'uses a wildcard';
    }
    if (this.resources.some((r) => r === 'secrets' || r.startsWith('secrets/'))) return 'grants access to Secrets';
    const badResource = this.resources.find((r) => !RESOURCE_NAME.test(r));
    if (badResource !== undefined)
      return `names resource '${badResource}', which is not a lower-case plural resource name such as 'pods' or 'nodes/status'`;
    const unknown = this.verbs.filter((v) => !KNOWN_VERBS.includes(v));
    if (unknown.length > 0) return `has unknown verb(s) ${unknown.join(', ')}`;
    return undefined;
  }

  /** The RBAC PolicyRule object. */
  public toJson(): any {
    return { apiGroups: [this.apiGroup], resources: [...this.resources], verbs: [...this.verbs] };
  }
}
