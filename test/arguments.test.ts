/**
 * Every public static method and method of every exported class checks its arguments at runtime (callers may be plain
 * JavaScript, or other languages through jsii). The cases are generated from the TypeScript signatures: for each
 * parameter, a call without it (when it is required) and calls with values of the wrong type (a number for a string, a
 * string for an options object or a list, a plain object for a class instance) must throw a NodeServiceError naming
 * `Class.method(parameter)` — never a TypeError, never a returned object. A call with one argument too many must throw
 * too. A new factory is covered as soon as it is exported; the test asks for a sample value only where it cannot make
 * one from the type.
 */

import { ApiObject, Chart, Testing } from 'cdk8s';
import * as ts from 'typescript';
import * as api from '../src';
import { apiProgram } from './support/props';

const checker = apiProgram().getTypeChecker();

/** Methods (or single parameters, `Class.method(param)`) that legitimately take any value, each with why. */
const TAKES_ANY: { [where: string]: string } = {
  'PodSecurity.evaluate': 'evaluates any manifest: a value that holds no pod spec is its own answer (an error naming it)',
  'ApiFields.unknownFields': 'reads any manifest; it answers for every value, like the CLI does on arbitrary YAML',
  'ApiFields.versionProblems': 'reads any manifest; it answers for every value, like the CLI does on arbitrary YAML',
  'ApiFields.wrongTypeFields': 'reads any manifest; it answers for every value, like the CLI does on arbitrary YAML',
  'NodeServiceKinds.all':
    'the kind table is a pure module (it must not import the construct library, where the argument checker lives); it takes nothing',
  'PolicyEngine.check': 'checks any list of manifests: what is not a manifest is reported as a finding',
  'NodeServiceKinds.profile': 'a lookup by kind name: any value that names no kind gets the generic profile',
  'RuleCatalogue.find': 'a lookup by rule id: any value that names no rule answers undefined',
  'NodeServiceValidation.validate': 'called by the cdk8s validation plugin machinery with its own context',
  'RuleCatalogue.all':
    'the rule catalogue is a pure module (it must not import the construct library, where the argument checker lives); it takes nothing',
  'Fleet.addCluster(options)': 'checked as props (every field, with the fleet path), see test/fleet',
  'Fleet.addServices(services)': 'checked as props (must have define), see test/fleet',
  'Fleet.addServices(options)': 'checked as props (every field), see test/fleet',
  'GitOps.argoCd(options)': 'checked as props (every field), see test/fleet/gitops',
  'GitOps.flux(options)': 'checked as props (every field), see test/fleet/gitops',
  'FleetCluster.chart(props)': "cdk8s's ChartProps, checked by cdk8s",
};

/** Classes not covered here, each with why. */
const NOT_HERE: { [cls: string]: string } = {
  NodeServiceError: 'the error class itself',
  PolicyConfigError: 'an error class',
};

/** Values for types the test cannot make from the type alone. */
const SAMPLES: { [typeName: string]: () => unknown } = {
  NodePool: () => api.NodePool.all(),
  ApiObject: () => new ApiObject(Testing.chart(), 'o', { apiVersion: 'v1', kind: 'ConfigMap' }),
  IConstruct: () => Testing.chart(),
  IConfigMap: () => ({ name: 'config' }),
  ISecret: () => ({ name: 'secret' }),
  NodePoolProps: () => ({ name: 'pool' }),
  NodeBudgetProps: () => ({ cpuPercent: 5 }),
  WritableHostPathOptions: () => ({ reason: 'keeps its read position across restarts' }),
  WindowsVariantOptions: () => ({ reason: 'the agent ships a Windows HostProcess build' }),
  PriorityClassOptions: () => ({ name: 'node-critical-agents', value: 1000 }),
  FleetClusterOptions: () => ({ name: `c${++clusters}`, kubernetesVersion: api.KubernetesVersion.V1_28, pools: [api.NodePool.all()] }),
  IFleetServices: () => ({ define: () => undefined }),
  ArgoCdOptions: () => ({ repoUrl: 'https://git.example.com/platform.git' }),
  FluxOptions: () => ({ sourceName: 'platform' }),
  NodeServiceValidationProps: () => ({}),
};
let clusters = 0;

/** Values for parameters whose type is too wide to make a meaningful one from (`Class.method(param)`). */
const PARAM_SAMPLES: { [where: string]: unknown } = {
  'Suppressions.add(ruleId)': 'host-path-writable',
  'Suppressions.add(reason)': 'the agent keeps its state on the node',
  'Fleet.cluster(name)': 'a',
  'FleetCluster.pool(name)': 'pool',
  'NodeServiceValidation.validate(context)': {},
  'PodSecurity.evaluate(object)': { spec: { containers: [{ name: 'c', image: 'x:1' }] } },
};

/** Instances for the instance methods. */
const INSTANCES: { [cls: string]: () => any } = {
  Fleet: () =>
    new api.Fleet({
      outdir: require('os').tmpdir() + '/cdk8s-node-services-args',
      clusters: [{ name: 'a', kubernetesVersion: api.KubernetesVersion.V1_28, pools: [api.NodePool.all('pool')] }],
    }),
  FleetCluster: () => INSTANCES.Fleet().cluster('a'),
  NodeServiceChecks: () => api.NodeServiceChecks.of(Testing.chart()),
  Toleration: () => api.Toleration.all(),
  NodeRequirement: () => api.NodeRequirement.exists('k'),
  IntOrPercent: () => api.IntOrPercent.count(1),
  ApiPermission: () => api.ApiPermission.read(['nodes']),
  Taint: () => api.Taint.noSchedule('k'),
  NodePool: () => api.NodePool.all(),
  NodeServiceValidation: () => new api.NodeServiceValidation(),
};

/** Methods without parameters whose extra arguments are not checked, each with why. */
const NO_ARITY_CHECK = new Set(['toJson', 'toString', 'toNode', 'problem', 'validate']);

interface Param {
  readonly name: string;
  readonly optional: boolean;
  readonly type: ts.Type;
}

interface Method {
  readonly cls: string;
  readonly name: string;
  readonly isStatic: boolean;
  readonly params: Param[];
}

function isInternal(node: ts.Node): boolean {
  return ts.getJSDocTags(node).some((t) => t.tagName.text === 'internal');
}

/** Every public static method and method of every exported class (constructs' props are the boundary test's). */
function publicMethods(): Method[] {
  const program = apiProgram();
  const mod = checker.getSymbolAtLocation(program.getSourceFile(require('path').join(__dirname, '..', 'src', 'index.ts'))!)!;
  const out: Method[] = [];
  for (const s of checker.getExportsOfModule(mod)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (!(target.flags & ts.SymbolFlags.Class) || NOT_HERE[s.name]) continue;
    const decl = target.declarations!.find(ts.isClassDeclaration)!;
    for (const m of decl.members) {
      if (!ts.isMethodDeclaration(m) || !ts.isIdentifier(m.name) || m.name.text.startsWith('_') || isInternal(m)) continue;
      const flags = ts.getCombinedModifierFlags(m);
      if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
      out.push({
        cls: s.name,
        name: m.name.text,
        isStatic: (flags & ts.ModifierFlags.Static) !== 0,
        params: m.parameters.map((p) => ({
          name: p.name.getText(),
          optional: p.questionToken !== undefined || p.initializer !== undefined,
          type: checker.getNonNullableType(checker.getTypeAtLocation(p)),
        })),
      });
    }
  }
  return out;
}

function typeName(type: ts.Type): string | undefined {
  return (type.aliasSymbol ?? type.getSymbol())?.getName();
}

function isString(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) !== 0;
}

/** The enum object of a string-enum type (`TaintEffect`), if it is one. */
function enumOf(type: ts.Type): Record<string, string> | undefined {
  if (!(type.flags & (ts.TypeFlags.EnumLike | ts.TypeFlags.Union)) || !(type.flags & ts.TypeFlags.EnumLike)) {
    if (!type.isUnion() || !type.types.every((t) => t.flags & ts.TypeFlags.EnumLiteral)) return undefined;
  }
  const name = typeName(type);
  const value = name ? (api as any)[name] : undefined;
  return typeof value === 'object' ? value : undefined;
}

type Kind = 'string' | 'number' | 'boolean' | 'list' | 'object' | 'instance' | 'enum' | 'any';

function kindOf(type: ts.Type): Kind {
  if (type.flags & ts.TypeFlags.Any || type.flags & ts.TypeFlags.Unknown) return 'any';
  if (enumOf(type)) return 'enum';
  if (isString(type)) return 'string';
  if (type.flags & ts.TypeFlags.Number) return 'number';
  if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return 'boolean';
  if (checker.isArrayType(type)) return 'list';
  const symbol = type.getSymbol();
  if (symbol && symbol.flags & ts.SymbolFlags.Class) return 'instance';
  return 'object';
}

/** A value of `type` the method accepts. */
function sampleOf(type: ts.Type, where: string): unknown {
  if (where in PARAM_SAMPLES) return PARAM_SAMPLES[where];
  const name = typeName(type);
  if (name && SAMPLES[name]) return SAMPLES[name]();
  switch (kindOf(type)) {
    case 'string':
      return 'sample';
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'any':
      return {};
    case 'enum':
      return Object.values(enumOf(type)!)[0];
    case 'list': {
      const element = checker.getTypeArguments(type as ts.TypeReference)[0];
      return [sampleOf(element, where)];
    }
    case 'object':
      // An interface or map whose fields are all optional takes {}.
      if (checker.getPropertiesOfType(type).every((p) => p.flags & ts.SymbolFlags.Optional)) return {};
      break;
    default:
      break;
  }
  throw new Error(`no sample value for ${name ?? checker.typeToString(type)} in ${where}: add one to SAMPLES`);
}

/** Values of the wrong type for `type`. */
function wrongValuesFor(type: ts.Type): unknown[] {
  switch (kindOf(type)) {
    case 'string':
      return [42, { value: 'x' }];
    case 'enum':
      return [42, {}];
    case 'number':
      return ['1', NaN];
    case 'boolean':
      return ['true'];
    case 'list':
      return ['sample', {}];
    case 'instance':
      return [{}, 'sample'];
    case 'object':
      return ['sample', 42, []];
    case 'any':
      return [];
  }
}

function call(method: Method, args: unknown[]): unknown {
  const target = method.isStatic ? (api as any)[method.cls] : instanceOf(method.cls);
  return target[method.name](...args);
}

function instanceOf(cls: string): any {
  const make = INSTANCES[cls];
  if (!make) throw new Error(`no instance of ${cls} for its methods: add one to INSTANCES`);
  return make();
}

/** The NodeServiceError `fn` throws, or a failure saying what it did instead. */
function argumentError(fn: () => unknown): api.NodeServiceError {
  let result: unknown;
  try {
    result = fn();
  } catch (e) {
    if (e instanceof api.NodeServiceError) return e;
    throw new Error(`expected a NodeServiceError, got ${String(e)}`);
  }
  throw new Error(`expected a NodeServiceError, got a result: ${String(result)}`);
}

const methods = publicMethods();
const label = (m: Method): string => `${m.cls}.${m.name}`;
const validArgs = (m: Method): unknown[] => m.params.map((p) => sampleOf(p.type, `${label(m)}(${p.name})`));

describe('every public method checks its arguments (generated from the signatures)', () => {
  test('GIVEN the exported classes THEN their methods are found, and every exemption names one of them', () => {
    expect(methods.length).toBeGreaterThan(80);
    const known = new Set(methods.flatMap((m) => [label(m), ...m.params.map((p) => `${label(m)}(${p.name})`)]));
    expect(Object.keys(TAKES_ANY).filter((k) => !known.has(k))).toEqual([]);
    // A Chart made only to hold the samples' ApiObjects.
    expect(Chart.of(Testing.chart())).toBeDefined();
  }, 60_000);

  describe.each(methods.map((m) => [label(m), m] as const))('%s', (name, method) => {
    const exempt = TAKES_ANY[name];
    if (name !== 'NodeServiceValidation.validate') {
      test('GIVEN valid arguments THEN it answers', () => {
        expect(() => call(method, validArgs(method))).not.toThrow();
      });
    }

    const params = method.params.filter((p) => !exempt && !TAKES_ANY[`${name}(${p.name})`] && kindOf(p.type) !== 'any');
    for (const [i, p] of method.params.entries()) {
      if (!params.includes(p)) continue;
      const field = `${name}(${p.name})`;
      if (!p.optional) {
        test(`GIVEN no ${p.name} THEN a NodeServiceError names ${field}`, () => {
          const args = validArgs(method);
          args[i] = undefined;
          const error = argumentError(() => call(method, args));
          expect(error.problems.map((q) => `${q.field}: ${q.problem}`)).toEqual([`${field}: is required`]);
        });
      }
      test.each(wrongValuesFor(p.type).map((v) => [JSON.stringify(v) ?? String(v), v]))(
        `GIVEN ${p.name} = %s THEN a NodeServiceError names ${field}`,
        (_shown, wrong) => {
          const args = validArgs(method);
          args[i] = wrong;
          const error = argumentError(() => call(method, args));
          expect(error.problems.map((q) => q.field)).toEqual([field]);
          expect(error.message).toContain(`[${name}] invalid arguments (1 problem):`);
        },
      );
    }

    if (!exempt && !(method.params.length === 0 && !method.isStatic && NO_ARITY_CHECK.has(method.name))) {
      test('GIVEN one argument too many THEN a NodeServiceError names it (it would be dropped)', () => {
        const args = [...validArgs(method), 'extra'];
        const error = argumentError(() => call(method, args));
        expect(error.problems.map((q) => `${q.field} = ${q.value}`)).toEqual([`${name}(arguments[${method.params.length}]) = "extra"`]);
      });
    }
  });
});
