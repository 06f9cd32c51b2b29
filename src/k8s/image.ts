/**
 * Container image references (`[registry/]repository[:tag][@digest]`), parsed the way container runtimes
 * do: the first path component is a registry host when it contains '.' or ':' or is `localhost`.
 */

/** The parts of a container image reference. */
export interface ImageReference {
  /** Registry host (and port), `docker.io` when the reference names none. */
  readonly registry: string;
  /** Repository path without registry, tag or digest. */
  readonly repository: string;
  /** Tag, when present. */
  readonly tag?: string;
  /** Digest (`sha256:<hex>`), when present. */
  readonly digest?: string;
}

const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const REPO_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

/** Parses an image reference; returns `undefined` when it is not a syntactically valid reference. */
export function parseImage(ref: string): ImageReference | undefined {
  if (typeof ref !== 'string' || ref.length === 0 || /\s/.test(ref)) return undefined;
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const lastColon = rest.lastIndexOf(':');
  if (lastColon > lastSlash) {
    tag = rest.slice(lastColon + 1);
    rest = rest.slice(0, lastColon);
    if (!TAG.test(tag)) return undefined;
  }
  const parts = rest.split('/');
  let registry = 'docker.io';
  if (parts.length > 1 && (parts[0].includes('.') || parts[0].includes(':') || parts[0] === 'localhost')) {
    registry = parts.shift() as string;
  }
  if (parts.length === 0 || parts.some((p) => !REPO_COMPONENT.test(p))) return undefined;
  return { registry, repository: parts.join('/'), tag, digest };
}

/**
 * Why `ref` is not a pinned image reference (it must parse, and carry a tag other than `latest` or a digest),
 * or `undefined` when it is pinned.
 */
export function imagePinError(ref: string): string | undefined {
  const parsed = parseImage(ref);
  if (!parsed) return 'is not a valid image reference ([registry/]repository[:tag][@sha256:digest])';
  if (!parsed.tag && !parsed.digest) return 'has no tag or digest, so every node may pull a different version';
  if (parsed.tag === 'latest' && !parsed.digest) return "uses the mutable ':latest' tag, so every node may pull a different version";
  return undefined;
}

/**
 * `<registry>/<path>` of `ref` with tag and digest removed, normalised the way container runtimes resolve it
 * (`github.com/distribution/reference`, `ParseNormalizedNamed`): the first path element is the registry host when it
 * contains '.' or ':', is `localhost` or has upper-case letters (a repository path may not, so a runtime reads it as
 * a host: `Evil/agent` is host `Evil`); otherwise the host is `docker.io`. `index.docker.io` is `docker.io`, and a
 * Docker Hub name of one element is an official image: `nginx` and `docker.io/nginx` are `docker.io/library/nginx`.
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
 * Whether the image comes from one of the allowed prefixes (registry and optional path), compared with the
 * repository as runtimes resolve it ({@link runtimeImageRepository}) — the same reading as the admission policies'
 * registry allowlist. A prefix matches on a path boundary: `registry.example.com` allows `registry.example.com/x` but
 * not `registry.example.com.evil.io/x`; `flannel:v1` is `docker.io/library/flannel`, which `docker.io/flannel` (an
 * organisation) does not allow. An invalid reference matches nothing.
 */
export function imageMatchesRegistry(ref: string, allowedPrefixes: readonly string[]): boolean {
  if (!parseImage(ref)) return false;
  const full = runtimeImageRepository(ref);
  return allowedPrefixes.some((prefix) => {
    const p = prefix.replace(/\/+$/, '');
    return full === p || full.startsWith(p + '/');
  });
}
