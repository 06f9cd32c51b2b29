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
 * Whether the image's registry (and optional path) matches one of the allowed prefixes. A prefix matches on a
 * path boundary: `registry.example.com` allows `registry.example.com/x` but not `registry.example.com.evil.io/x`.
 * Images without a registry host are matched as `docker.io/<repository>`.
 */
export function imageMatchesRegistry(ref: string, allowedPrefixes: readonly string[]): boolean {
  const parsed = parseImage(ref);
  if (!parsed) return false;
  const full = `${parsed.registry}/${parsed.repository}`;
  return allowedPrefixes.some((prefix) => {
    const p = prefix.replace(/\/+$/, '');
    return full === p || full.startsWith(p + '/');
  });
}
