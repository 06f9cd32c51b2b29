/**
 * Required node affinity as terms of requirements: ANDing requirements into terms without changing the nodes they
 * select, and the complement of a match.
 */

import { NodeAffinityTerm, NodeRequirement } from '../placement';

/** The complement of a variant's match (`key NotIn values`). */
export function complementOf(match: NodeRequirement): NodeRequirement {
  return NodeRequirement.notIn(match.key, match.values ?? []);
}

/**
 * ANDs `requirements` into every term ((A∨B)∧C = (A∧C)∨(B∧C)); without terms, one term of just the requirements.
 * Terms that no node can satisfy (`k In [a]` with `k NotIn [a]`, …) are dropped while one remains, and a term that
 * contains every requirement of another is dropped (absorption: A∨(A∧B) = A), so the result selects the same nodes.
 */
export function withRequirements(terms: NodeAffinityTerm[], requirements: NodeRequirement[]): NodeAffinityTerm[] {
  if (requirements.length === 0) return terms;
  const anded: NodeAffinityTerm[] =
    terms.length === 0
      ? [{ requirements: [...requirements] }]
      : terms.map((t) => ({ requirements: dedupeRequirements([...t.requirements, ...requirements]) }));
  const satisfiable = anded.filter((t) => !contradicts(t.requirements));
  const kept = satisfiable.length > 0 ? satisfiable : anded.slice(0, 1);
  const ids = kept.map((t) => new Set(t.requirements.map((r) => JSON.stringify(r.toJson()))));
  return kept.filter(
    (_, i) =>
      !ids.some(
        (other, j) => j !== i && other.size <= ids[i].size && [...other].every((x) => ids[i].has(x)) && (other.size < ids[i].size || j < i),
      ),
  );
}

/** The requirements without exact repeats. */
function dedupeRequirements(requirements: NodeRequirement[]): NodeRequirement[] {
  const seen = new Set<string>();
  return requirements.filter((r) => {
    const id = JSON.stringify(r.toJson());
    return !seen.has(id) && seen.add(id) !== undefined;
  });
}

/** Whether no node satisfies every requirement (decided for In, NotIn, Exists and DoesNotExist on one key). */
function contradicts(requirements: NodeRequirement[]): boolean {
  return requirements.some((a) =>
    requirements.some((b) => {
      if (a === b || a.key !== b.key) return false;
      const av = a.values ?? [];
      const bv = b.values ?? [];
      if (a.operator === 'In' && b.operator === 'In') return !av.some((v) => bv.includes(v));
      if (a.operator === 'In' && b.operator === 'NotIn') return av.every((v) => bv.includes(v));
      if (a.operator === 'In' && b.operator === 'DoesNotExist') return true;
      return a.operator === 'Exists' && b.operator === 'DoesNotExist';
    }),
  );
}
