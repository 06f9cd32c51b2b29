/**
 * The repository an image reference names, normalised the way container runtimes resolve it
 * (`github.com/distribution/reference`, `ParseNormalizedNamed`): what the admission policies' registry allowlist
 * compares against (`runtimeImageRepository` in src/k8s, which the lint rule uses too). The CEL in `admission-spec.ts`
 * computes the same string; the tests hold them together.
 */

import { runtimeImageRepository } from '../k8s/image';

export { runtimeImageRepository };

/**
 * Whether `ref` comes from one of `allowed` (normalised prefixes without trailing '/'), on a path boundary.
 * @internal
 */
export function imageAllowedByRegistries(ref: string, allowed: readonly string[]): boolean {
  const repository = runtimeImageRepository(ref);
  return allowed.some((p) => repository === p || repository.startsWith(`${p}/`));
}
