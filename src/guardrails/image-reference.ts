/**
 * The repository an image reference names, normalised the way container runtimes resolve it
 * (`github.com/distribution/reference`, `ParseNormalizedNamed`): what the admission policies' registry allowlist
 * compares against. The CEL in `admission-spec.ts` computes the same string; the tests hold them together.
 */

/**
 * `<registry>/<path>` of `ref` with tag and digest removed: the first path element is the registry host when it
 * contains '.' or ':', is `localhost` or has upper-case letters (a repository path may not, so a runtime reads it
 * as a host: `Evil/agent` is host `Evil`); otherwise the host is `docker.io`. `index.docker.io` is `docker.io`,
 * and a Docker Hub name of one element is an official image: `nginx` and `docker.io/nginx` are
 * `docker.io/library/nginx`.
 * @internal
 */
export function runtimeImageRepository(ref: string): string {
  let name = ref.split('@')[0];
  if (/:[^/]*$/.test(name)) name = name.slice(0, name.lastIndexOf(':'));
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasHost = slash >= 0 && (/[.:]/.test(first) || first === 'localhost' || /[A-Z]/.test(first));
  let host = hasHost ? first : 'docker.io';
  const path = hasHost ? name.slice(slash + 1) : name;
  if (host === 'index.docker.io') host = 'docker.io';
  return host === 'docker.io' && !path.includes('/') ? `docker.io/library/${path}` : `${host}/${path}`;
}

/**
 * Whether `ref` comes from one of `allowed` (normalised prefixes without trailing '/'), on a path boundary.
 * @internal
 */
export function imageAllowedByRegistries(ref: string, allowed: readonly string[]): boolean {
  const repository = runtimeImageRepository(ref);
  return allowed.some((p) => repository === p || repository.startsWith(`${p}/`));
}
