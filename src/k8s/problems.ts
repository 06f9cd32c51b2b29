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
 * problem under a field whose type was already wrong is muted and duplicates are dropped. A problem found under a part
 * of the props that a preset made from a user's field is reported at that field (see {@link madeFrom}).
 */
export class ProblemCollector {
  private readonly problems: PropProblem[] = [];
  private readonly muted: string[] = [];
  private readonly renames: Array<[string, string]> = [];
  /** The props whose parts know the user's fields (see {@link carryProblems}). */
  private subject?: object;

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
    const field = this.subject ? userFieldOf(this.subject, p.field, (f) => this.refused(f)) : p.field;
    if (field === undefined) return;
    const user = this.userField(field);
    if (this.muted.some((m) => within(p.field, m) || within(user, m))) return;
    if (this.problems.some((q) => q.field === field && q.problem === p.problem && q.value === p.value)) return;
    this.problems.push({ ...p, field });
  }

  /** Drops every problem recorded from now on under `field` (or under every field, for `''`). */
  public mute(field: string): void {
    this.muted.push(field);
  }

  /**
   * Reports problems under the internal field `from` (and below it) under `to`, the field the user wrote. For the parts
   * a preset builds, record where they came from instead ({@link madeFrom}): a position renamed here goes stale when
   * the list it points into changes.
   */
  public rename(from: string, to: string): void {
    this.renames.push([from, to]);
  }

  /**
   * Problems recorded from now on are found in `props`: each is reported at the user's field its part was made from,
   * and dropped when the part derives from a field that already has a problem (see {@link derivedFrom}).
   */
  public about(props: object): void {
    this.subject = props;
  }

  /** Whether the user's `field` (or a field above or below it) already has a problem, or is muted. */
  private refused(field: string): boolean {
    const related = (f: string): boolean => within(f, field) || within(field, f);
    return this.muted.some(related) || this.problems.some((p) => related(p.field));
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
 * Hands `problems` (a preset's) to the `NodeService` that receives `props`, so that preset-level and core-level problems
 * are reported together, in one error, each at the user's field the part it was found in was made from. Returns
 * `props`.
 * @internal
 */
export function carryProblems<T extends object>(props: T, problems: ProblemCollector): T {
  problems.about(props);
  carried.set(props, problems);
  return props;
}

/** The problems a preset handed over with `props`, if any. @internal */
export function presetProblems(props: unknown): ProblemCollector | undefined {
  return typeof props === 'object' && props !== null ? carried.get(props) : undefined;
}

/**
 * Field provenance: where a member of a part of a node service's props came from. A preset builds the parts of
 * `NodeServiceProps` (containers, host paths, ports, lists) from its user's props; each member that holds a user's value
 * knows the field the user wrote, so a problem the core finds there is reported at that field, wherever the part ends
 * up in the props. Origins are kept beside the parts (never on them: a part is the user's object or a fresh one, and
 * the same user object may appear at two places).
 */
interface Origin {
  /** The field as the user wrote it (`stateDir`, `extraHostPaths[2]`, `sidecars[1]`). */
  readonly field: string;
  /** The member is computed from the field rather than holding its value: its problems are the field's own. */
  readonly derived: boolean;
}

const ORIGINS = new WeakMap<object, Map<string, Origin>>();
/** The origins of whole parts (a container made from `install`, a host path derived from `driverName`). */
const PART_ORIGINS = new WeakMap<object, Origin>();

function setOrigin(part: object, member: PropertyKey, origin: Origin): void {
  let members = ORIGINS.get(part);
  if (members === undefined) ORIGINS.set(part, (members = new Map()));
  members.set(String(member), origin);
}

function record<T extends object>(part: T, origin: Origin, member: keyof T | undefined): T {
  if (member === undefined) PART_ORIGINS.set(part, origin);
  else setOrigin(part, member, origin);
  return part;
}

/**
 * Records that `part` (or its `member`) holds the value of the user's `field`: a problem found there, or below, is
 * reported at `field`. `part` must be an object the preset built, never one of the user's (it may appear at several
 * places); returns it.
 * @internal
 */
export function madeFrom<T extends object>(part: T, field: string, member?: keyof T): T {
  return record(part, { field, derived: false }, member);
}

/**
 * Records that `part` (or its `member`) is computed from the user's `field` (a path built from a driver name, a probe
 * of a port, a mount path that defaults to the path): when `field` already has a problem, the problems found there are
 * that one and are dropped; otherwise they are reported where they are. `part` must be an object the preset built;
 * returns it.
 * @internal
 */
export function derivedFrom<T extends object>(part: T, field: string, member?: keyof T): T {
  return record(part, { field, derived: true }, member);
}

/**
 * A copy of the user's list `field`, keeping the elements for which `keep` holds; each is reported at `field[i]`, `i`
 * its position in the user's list.
 * @internal
 */
export function userParts<T>(values: readonly T[] | undefined, field: string, keep: (value: T) => boolean = () => true): T[] {
  const out: T[] = [];
  (values ?? []).forEach((v, i) => {
    if (!keep(v)) return;
    setOrigin(out, out.length, { field: `${field}[${i}]`, derived: false });
    out.push(v);
  });
  return out;
}

/** The lists one after the other; each element keeps the origin it had in its list. @internal */
export function joined<T>(...lists: Array<readonly T[] | undefined>): T[] {
  const out: T[] = [];
  for (const l of lists) {
    const members = l && ORIGINS.get(l);
    (l ?? []).forEach((v, i) => {
      const origin = members?.get(String(i));
      if (origin) setOrigin(out, out.length, origin);
      out.push(v);
    });
  }
  return out;
}

/** `base` (a plain object) with the members of `changes` in place of its own: the members not changed keep their origins. @internal */
export function laidOver<T extends object>(base: T, changes: Partial<T>): T {
  const out: T = { ...base, ...changes };
  for (const [member, origin] of ORIGINS.get(base) ?? []) if (!(member in changes)) setOrigin(out, member, origin);
  return out;
}

/** A copy of `list` with `value` in place of its element `index`: the other elements keep their origins. @internal */
export function replaced<T>(list: readonly T[], index: number, value: T): T[] {
  const out = joined(list);
  out[index] = value;
  ORIGINS.get(out)?.delete(String(index));
  return out;
}

/**
 * The entries of the map `preset` the user's map does not set (keeping their origins), then the user's, each reported
 * at `field["key"]`.
 * @internal
 */
export function merged<V>(
  preset: { readonly [key: string]: V } | undefined,
  user: { readonly [key: string]: V },
  field: string,
): { [key: string]: V } {
  const out: { [key: string]: V } = {};
  const members = preset && ORIGINS.get(preset);
  for (const [k, v] of Object.entries(preset ?? {})) {
    if (k in user) continue;
    out[k] = v;
    const origin = members?.get(k);
    if (origin) setOrigin(out, k, origin);
  }
  for (const [k, v] of Object.entries(user)) {
    out[k] = v;
    setOrigin(out, k, { field: `${field}["${k}"]`, derived: false });
  }
  return out;
}

/**
 * The field the user wrote for the internal `field` of `props` (`containers[0].hostPaths[3].path` →
 * `extraHostPaths[0].path`): the parts along the path are visited from `props` down, and the deepest origin found
 * names it. `undefined` when a part on the path derives from a field that is `refused` (its problem is that one).
 */
function userFieldOf(props: object, field: string, refused: (field: string) => boolean): string | undefined {
  let found: { field: string; end: number } | undefined;
  let dropped = false;
  const visit = (origin: Origin | undefined, end: number): void => {
    if (origin?.derived) dropped ||= refused(origin.field);
    else if (origin) found = { field: origin.field, end };
  };
  let value: unknown = props;
  let at = 0;
  while (typeof value === 'object' && value !== null) {
    visit(PART_ORIGINS.get(value), at);
    const step = at < field.length ? memberAt(value, field, at) : undefined;
    if (step === undefined) break;
    visit(ORIGINS.get(value)?.get(step.member), step.end);
    value = Reflect.get(value, step.member);
    at = step.end;
  }
  if (dropped) return undefined;
  return found ? found.field + field.slice(found.end) : field;
}

/** The member of `part` that `field` names at position `at` (`.name`, `[0]`, `["key"]`, or `name` first), and its end. */
function memberAt(part: object, field: string, at: number): { member: string; end: number } | undefined {
  const index = /^\[(\d+)\]/.exec(field.slice(at));
  if (Array.isArray(part)) return index ? { member: index[1], end: at + index[0].length } : undefined;
  let best: { member: string; end: number } | undefined;
  for (const member of new Set([...Object.keys(part), ...(ORIGINS.get(part)?.keys() ?? [])])) {
    for (const written of at === 0 ? [member] : [`.${member}`, `["${member}"]`]) {
      const end = at + written.length;
      const next = field[end];
      if (!field.startsWith(written, at) || !(next === undefined || next === '.' || next === '[')) continue;
      if (!best || end > best.end) best = { member, end };
    }
  }
  return best;
}
