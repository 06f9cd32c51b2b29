/**
 * Host path grammar shared by host access declarations and policy rules.
 */

/** Why `path` is not an absolute, normalized host path without `..` elements, or `undefined`. */
export function hostPathError(path: string): string | undefined {
  if (typeof path !== 'string' || path.length === 0) return 'must not be empty';
  if (!path.startsWith('/')) return 'must be an absolute path (start with /)';
  if (path.split('/').includes('..')) return "must not contain a '..' element";
  if (/\/\/|\/\.\/|\/\.$/.test(path)) return "must be normalized (no '//' or '.' elements)";
  return undefined;
}

/** `path` without a trailing slash (except for `/` itself). */
export function normalizeHostPath(path: string): string {
  // only a path that ends in '/' changes: the common case returns without a regular expression
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.replace(/\/+$/, '') : path;
}

/** Whether `path` is `prefix` itself or lies below it (on a path-element boundary). */
export function isPathWithin(path: string, prefix: string): boolean {
  const p = normalizeHostPath(path);
  const q = normalizeHostPath(prefix);
  if (q === '/') return true;
  return p === q || p.startsWith(q + '/');
}
