/**
 * Errors raised while constructing node services. Each names the construct path, the field, the bad value and the fix,
 * and is thrown before any YAML exists, so bad input never produces partial output.
 */

/** One problem with a construct's props. */
export interface PropProblem {
  /** The prop, with its position (e.g. `containers[0].image`). */
  readonly field: string;
  /** The offending value, rendered for humans. */
  readonly value: string;
  /** What is wrong. */
  readonly problem: string;
  /** How to fix it. */
  readonly fix: string;
}

/**
 * Thrown when a node-service construct gets invalid props; lists every problem found.
 * It extends the built-in `Error`, which jsii cannot model: other languages receive the message.
 *
 * @jsii ignore
 */
export class NodeServiceError extends Error {
  /** The construct path of the construct that rejected its props. */
  public readonly constructPath: string;
  /** Every problem found. */
  public readonly problems: PropProblem[];

  constructor(constructPath: string, problems: PropProblem[]) {
    const lines = problems.map((p) => `  - ${p.field} = ${p.value}: ${p.problem}. Fix: ${p.fix}`);
    super(`[${constructPath}] invalid props (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'NodeServiceError';
    this.constructPath = constructPath;
    this.problems = problems;
  }
}

/** Renders a prop value for an error message. */
export function show(value: unknown): string {
  if (value === undefined) return '(unset)';
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Collects prop problems, then throws them all at once.
 * @internal
 */
export class ProblemCollector {
  private readonly problems: PropProblem[] = [];

  /** Records a problem when `problem` is defined (the result of a grammar check such as `dns1123LabelError`). */
  public check(field: string, value: unknown, problem: string | undefined, fix: string): void {
    if (problem !== undefined) this.problems.push({ field, value: show(value), problem, fix });
  }

  /** Records a problem unconditionally. */
  public add(field: string, value: unknown, problem: string, fix: string): void {
    this.problems.push({ field, value: show(value), problem, fix });
  }

  /** Calls `fn` for every recorded problem. */
  public forEach(fn: (problem: PropProblem) => void): void {
    this.problems.forEach(fn);
  }

  /** Whether any problem was recorded. */
  public get empty(): boolean {
    return this.problems.length === 0;
  }

  /** Throws a {@link NodeServiceError} for `constructPath` when any problem was recorded. */
  public throwIfAny(constructPath: string): void {
    if (this.problems.length > 0) throw new NodeServiceError(constructPath, this.problems);
  }
}
