/**
 * Runs the generated app without printing and compiling it: the same expression tree the printer writes is evaluated
 * against the library's exports, which the caller passes in (this module imports neither cdk8s nor the constructs,
 * so the CLI loads them only for `import --check`). The printed code and this evaluation build the same objects:
 * the printer is a direct rendering of the tree (tests compile and run the printed code and compare).
 */

import { NodeServiceError, show } from '../k8s/node-service-error';
import { DEFAULT_KUBERNETES_VERSION, KubernetesVersion } from '../k8s/api-fields/versions';
import { AppModel, Expr, KeptObject, ServiceModule } from './model';

/** What evaluation needs: the exports of `cdk8s-node-services`, `cdk8s` and `constructs`. */
export interface AdoptRuntime {
  /** The exports of `cdk8s-node-services` (constructs, factories, enums). */
  readonly library: Readonly<Record<string, unknown>>;
  /** The exports of `cdk8s` (App, Chart, ApiObject, JsonPatch). */
  readonly cdk8s: Readonly<Record<string, unknown>>;
  /** The exports of `constructs` (Construct). */
  readonly constructs: Readonly<Record<string, unknown>>;
}

/**
 * The runtime of one import: the exports, and the Kubernetes version the generated app targets. Every synthesis of
 * the import (the trials of presets and of defaults too) runs at that version, so that a field the target has is
 * accepted and one it lacks is refused, as `main.ts` declares it.
 */
export interface ImportRuntime extends AdoptRuntime {
  /**
   * The target version.
   * @default KubernetesVersion.V1_28
   */
  readonly target?: KubernetesVersion;
}

type Ctor = new (...args: any[]) => any;

/** The runtime's export `name`; a runtime without it is a wrong argument of the import. */
function exported(runtime: AdoptRuntime, name: string): any {
  for (const scope of [runtime.library, runtime.cdk8s, runtime.constructs]) {
    if (Object.prototype.hasOwnProperty.call(scope, name)) return scope[name];
  }
  throw new NodeServiceError(
    'importManifests',
    [
      {
        field: 'importManifests(options.runtime)',
        value: show(Object.keys(runtime)),
        problem: `has no export ${name} in its library, cdk8s or constructs`,
        fix: "pass { library: require('cdk8s-node-services'), cdk8s: require('cdk8s'), constructs: require('constructs') }",
      },
    ],
    'arguments',
  );
}

/** The value of an expression. */
function evaluateExpr(expr: Expr, runtime: AdoptRuntime, variables: ReadonlyMap<string, unknown>): unknown {
  switch (expr.type) {
    case 'literal':
      return structuredClone(expr.value);
    case 'constant':
      return expr.value;
    case 'member':
      return exported(runtime, expr.owner)[expr.member];
    case 'call': {
      const owner = exported(runtime, expr.owner);
      return owner[expr.method](...expr.args.map((a) => evaluateExpr(a, runtime, variables)));
    }
    case 'array':
      return expr.items.map((i) => evaluateExpr(i, runtime, variables));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const p of expr.properties)
        Object.defineProperty(out, p.key, {
          value: evaluateExpr(p.value, runtime, variables),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    case 'ref':
      return variables.get(expr.variable);
  }
}

function keep(scope: unknown, kept: KeptObject, runtime: AdoptRuntime): unknown {
  const ApiObject = exported(runtime, 'ApiObject') as Ctor;
  return new ApiObject(scope, kept.id, structuredClone(kept.body));
}

/** Builds one service module's construct in `scope` (what `new <ClassName>(scope, id)` does). */
function evaluateModule(scope: unknown, module: ServiceModule, runtime: AdoptRuntime): unknown {
  const Construct = exported(runtime, 'Construct') as Ctor;
  const JsonPatch = exported(runtime, 'JsonPatch');
  const construct = new Construct(scope, module.id);
  const variables = new Map<string, unknown>();
  for (const kept of module.objects) variables.set(kept.variable, keep(construct, kept, runtime));
  const Service = exported(runtime, module.construct) as Ctor;
  const service = new Service(construct, 'service', evaluateExpr(module.props, runtime, variables));
  for (const p of module.patches) {
    const patch = p.op === 'remove' ? JsonPatch.remove(p.path) : JsonPatch[p.op](p.path, structuredClone(p.value));
    service.daemonSet.addJsonPatch(patch);
  }
  return construct;
}

/** The chart's construct id in `main.ts`. */
export const CHART_ID = 'imported';

/**
 * Builds the whole app and synthesizes it to YAML at the runtime's target version (policy warnings silenced; errors
 * throw as synthesis does).
 */
export function synthesizeApp(model: AppModel, runtime: ImportRuntime): string {
  const App = exported(runtime, 'App') as Ctor;
  const Chart = exported(runtime, 'Chart') as Ctor;
  const checks = exported(runtime, 'NodeServiceChecks');
  const loggers = exported(runtime, 'PolicyLoggers');
  const app = new App({ outdir: 'dist' });
  checks.of(app, { logger: loggers.silent(), kubernetesVersion: runtime.target ?? DEFAULT_KUBERNETES_VERSION });
  const chart = new Chart(app, CHART_ID, {});
  for (const module of model.services) evaluateModule(chart, module, runtime);
  for (const kept of model.others) keep(chart, kept, runtime);
  return app.synthYaml() as string;
}
