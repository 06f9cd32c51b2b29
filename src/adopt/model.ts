/**
 * The generated code as data: an expression tree that is both printed as TypeScript (`print.ts`) and evaluated
 * against the library's exports (`evaluate.ts`), so that the check synthesizes exactly what the printed code builds.
 * Pure: no cdk8s import.
 */

/** A literal JSON value (strings are printed with `JSON.stringify`, so any text survives). */
export interface LiteralExpr {
  readonly type: 'literal';
  readonly value: unknown;
}

/** A named numeric constant declared at the top of the module (`const HEALTH_PORT = 2020;`). */
export interface ConstantExpr {
  readonly type: 'constant';
  readonly name: string;
  readonly value: number;
}

/** A member of an exported enum or class of the library (`HostPathType.SOCKET`). */
export interface MemberExpr {
  readonly type: 'member';
  readonly owner: string;
  readonly member: string;
}

/** A call of a static factory of the library (`HostPath.readOnly("/var/log")`). */
export interface CallExpr {
  readonly type: 'call';
  readonly owner: string;
  readonly method: string;
  readonly args: readonly Expr[];
}

/** One property of an object literal, with an optional comment printed above it. */
export interface Property {
  readonly key: string;
  readonly value: Expr;
  readonly comment?: string;
}

/** An object literal. */
export interface ObjectExpr {
  readonly type: 'object';
  readonly properties: readonly Property[];
}

/** An array literal; `comments[i]` is printed above item `i`. */
export interface ArrayExpr {
  readonly type: 'array';
  readonly items: readonly Expr[];
  readonly comments?: readonly (string | undefined)[];
}

/** A reference to an object created earlier in the module (a ConfigMap kept as an `ApiObject`). */
export interface RefExpr {
  readonly type: 'ref';
  readonly variable: string;
}

/** Any expression of the generated code. */
export type Expr = LiteralExpr | ConstantExpr | MemberExpr | CallExpr | ObjectExpr | ArrayExpr | RefExpr;

/** A Kubernetes object kept as it is (`new ApiObject(this, id, body)`). */
export interface KeptObject {
  /** Variable name in the generated module. */
  readonly variable: string;
  /** Construct id. */
  readonly id: string;
  /** The object (plain JSON). */
  readonly body: Record<string, unknown>;
  /** Why it is kept as it is. */
  readonly comment: string;
}

/** A JSON patch of the DaemonSet carried through the escape hatch (`service.daemonSet.addJsonPatch`). */
export interface PatchStatement {
  readonly op: 'add' | 'replace' | 'remove';
  /** JSON pointer into the DaemonSet. */
  readonly path: string;
  /** The value (not for `remove`). */
  readonly value?: unknown;
  /** Where the value comes from and why no prop carries it. */
  readonly comment: string;
}

/** One generated module: a construct class holding one node service and the objects that belong to it. */
export interface ServiceModule {
  /** File name inside the output folder (`fluent-bit.ts`). */
  readonly fileName: string;
  /** The construct class (`FluentBit`). */
  readonly className: string;
  /** Construct id in `main.ts`. */
  readonly id: string;
  /** The library construct it instantiates (`NodeService`, `LogAgent` …). */
  readonly construct: string;
  /** Props of that construct. */
  readonly props: Expr;
  /** Objects created before the node service (ConfigMaps it mounts are referenced by variable). */
  readonly objects: readonly KeptObject[];
  /** Escape-hatch patches of the DaemonSet. */
  readonly patches: readonly PatchStatement[];
  /** Named numeric constants declared at the top of the module. */
  readonly constants: ReadonlyArray<{ readonly name: string; readonly value: number }>;
  /** Module documentation: where it was imported from, which construct and why. */
  readonly doc: readonly string[];
}

/** The whole generated app. */
export interface AppModel {
  /** The chart's namespace, when all node services share one. */
  readonly namespace?: string;
  /** One module per node service. */
  readonly services: readonly ServiceModule[];
  /** Objects that belong to no node service, kept as they are (in `main.ts`). */
  readonly others: readonly KeptObject[];
}

/** A literal. */
export function lit(value: unknown): LiteralExpr {
  return { type: 'literal', value };
}

/** A static factory call; trailing empty option objects are left out (the factories default them). */
export function call(owner: string, method: string, ...args: Expr[]): CallExpr {
  const kept = [...args];
  while (kept.length > 0) {
    const last = kept[kept.length - 1];
    if (last.type === 'object' && last.properties.length === 0) kept.pop();
    else if (last.type === 'literal' && last.value === undefined) kept.pop();
    else break;
  }
  return { type: 'call', owner, method, args: kept };
}

/** An enum or static member. */
export function member(owner: string, name: string): MemberExpr {
  return { type: 'member', owner, member: name };
}

/** An object literal of the given properties, skipping undefined values. */
export function obj(properties: ReadonlyArray<Property | undefined>): ObjectExpr {
  return { type: 'object', properties: properties.filter((p): p is Property => p !== undefined) };
}

/** A property, or `undefined` when the value is. */
export function prop(key: string, value: Expr | undefined, comment?: string): Property | undefined {
  return value === undefined ? undefined : { key, value, comment };
}

/** An array literal. */
export function arr(items: readonly Expr[], comments?: readonly (string | undefined)[]): ArrayExpr {
  return { type: 'array', items, comments };
}

/** A named constant. */
export function constant(name: string, value: number): ConstantExpr {
  return { type: 'constant', name, value };
}
