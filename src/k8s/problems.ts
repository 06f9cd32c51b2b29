/**
 * Errors of node services' props and of the library's function arguments. Each names the construct path (or the
 * function), the field, the bad value and the fix. A construct with invalid props builds no object, and synthesis
 * fails with its problems and every other problem of the app, so bad input never produces output.
 */

import type { IConstruct } from './construct-like';
import { NodeServiceError, problemList, PropProblem, show } from './node-service-error';

export { NodeServiceError, PropProblem, show } from './node-service-error';

/**
 * Collects prop problems, then reports them all at once (at synthesis, or thrown). Problems are reported once: a later
 * problem under a field whose type was already wrong is muted, duplicates are dropped, and internal field names are
 * renamed to the fields the user wrote (`containers[0].hostPaths[3]` → `extraHostPaths[0]`).
 * @internal
 */
export class ProblemCollector {
  private readonly problems: PropProblem[] = [];
  private readonly muted: string[] = [];
  private readonly renames: Array<[string, string]> = [];

  /** Records a problem when `problem` is defined (the result of a grammar check such as `dns1123LabelError`). */
  public check(field: string, value: unknown, problem: string | undefined, fix: string): void {
    if (problem !== undefined) this.add(field, value, problem, fix);
  }

  /** Records a problem unconditionally. */
  public add(field: string, value: unknown, problem: string, fix: string): void {
    this.addRendered({ field, value: show(value), problem, fix });
  }

  /** Records a problem whose value is already rendered (from another collector). */
  public addRendered(p: PropProblem): void {
    const user = this.userField(p.field);
    if (this.muted.some((m) => within(p.field, m) || within(user, m))) return;
    if (this.problems.some((q) => q.field === p.field && q.problem === p.problem && q.value === p.value)) return;
    this.problems.push(p);
  }

  /** Drops every problem recorded from now on under `field` (or under every field, for `''`). */
  public mute(field: string): void {
    this.muted.push(field);
  }

  /** Reports problems under the internal field `from` (and below it) under `to`, the field the user wrote. */
  public rename(from: string, to: string): void {
    this.renames.push([from, to]);
  }

  /** Calls `fn` for every recorded problem (fields as the user wrote them). */
  public forEach(fn: (problem: PropProblem) => void): void {
    this.list().forEach(fn);
  }

  /** How many problems were recorded (repeats included). */
  public get size(): number {
    return this.problems.length;
  }

  /** Whether any problem was recorded. */
  public get empty(): boolean {
    return this.problems.length === 0;
  }

  /** Throws a {@link NodeServiceError} for `constructPath` when any problem was recorded. */
  public throwIfAny(constructPath: string): void {
    if (this.problems.length > 0) throw new NodeServiceError(constructPath, this.list());
  }

  /**
   * Reports the recorded problems, if any, at synthesis: a validation of `construct` lists them (cdk8s then fails
   * synthesis with them and with every other problem of the App, in one error). Returns whether there were any: the
   * construct then builds none of its objects, so bad props never become YAML.
   */
  public reportAtSynth(construct: IConstruct): boolean {
    if (this.problems.length === 0) return false;
    const problems = this.list();
    RECORDED.set(construct, new NodeServiceError(construct.node.path, problems));
    construct.node.addValidation({ validate: () => [problemList('props', problems, '    ')] });
    return true;
  }

  private list(): PropProblem[] {
    const out: PropProblem[] = [];
    for (const p of this.problems) {
      const q = { ...p, field: this.userField(p.field) };
      if (!out.some((o) => o.field === q.field && o.problem === q.problem && o.value === q.value)) out.push(q);
    }
    return out;
  }

  private userField(field: string): string {
    let best: [string, string] | undefined;
    for (const r of this.renames) if (within(field, r[0]) && (!best || r[0].length > best[0].length)) best = r;
    return best ? best[1] + field.slice(best[0].length) : field;
  }
}

/** The error of each construct that reported problems with its props at synthesis. */
const RECORDED = new WeakMap<IConstruct, NodeServiceError>();

/**
 * The {@link NodeServiceError} listing the problems of `construct`'s props, when it has any (they are reported at
 * synthesis): what reading an object the construct did not build throws.
 * @internal
 */
export function propsError(construct: IConstruct): NodeServiceError | undefined {
  return RECORDED.get(construct);
}

/** Whether `field` is `prefix` or lies below it (`prefix.x`, `prefix[0]`); every field lies below `''`. */
function within(field: string, prefix: string): boolean {
  if (prefix === '' || field === prefix) return true;
  return field.startsWith(prefix) && (field[prefix.length] === '.' || field[prefix.length] === '[');
}

/** Problems a preset found in its own props, travelling with the props it hands to `NodeService`. */
const carried = new WeakMap<object, ProblemCollector>();

/**
 * Hands `problems` (a preset's, with its renames) to the `NodeService` that receives `props`, so that preset-level and
 * core-level problems are reported together, in one error. Returns `props`.
 * @internal
 */
export function carryProblems<T extends object>(props: T, problems: ProblemCollector): T {
  carried.set(props, problems);
  return props;
}

/** The problems a preset handed over with `props`, if any. @internal */
export function presetProblems(props: unknown): ProblemCollector | undefined {
  return typeof props === 'object' && props !== null ? carried.get(props) : undefined;
}
