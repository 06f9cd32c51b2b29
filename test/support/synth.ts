import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { NodeServiceError, propsError } from '../../src/k8s/problems';
import { NodeServiceChecks, PolicyLoggers } from '../../src/policy/synth';

/** A fresh chart in an app that writes to a fixed scratch folder (Testing.app() leaves one temp folder per call). */
export function testChart(namespace?: string): Chart {
  const app = new App({ outdir: require('os').tmpdir() + '/cdk8s-node-services-test' });
  // Tests assert on findings themselves; keep the synth-time warning summary out of the test output.
  NodeServiceChecks.of(app, { logger: PolicyLoggers.silent() });
  return new Chart(app, 'test', namespace ? { namespace } : {});
}

/** Synthesizes `chart` into plain objects. */
export function synth(chart: Chart): any[] {
  return Testing.synth(chart);
}

/** The single object of `kind` (fails when there is not exactly one). */
export function only(objects: any[], kind: string): any {
  const found = objects.filter((o) => o.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}

/** All containers of a DaemonSet's pod template, init containers first. */
export function containersOf(ds: any): any[] {
  return [...(ds.spec.template.spec.initContainers ?? []), ...ds.spec.template.spec.containers];
}

/**
 * Runs `build` in a fresh chart, synthesizes the App and returns the message of the error either throws: construction
 * problems are reported at synthesis, with the App's other problems, in one error (fails when nothing is thrown).
 */
export function errorOf(build: (scope: Construct) => void): string {
  const chart = testChart();
  try {
    build(chart);
    // app.synthYaml() validates like app.synth() (one sorted error) and writes nothing.
    App.of(chart).synthYaml();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the construct or the synthesis to throw');
}

/**
 * The {@link NodeServiceError} of the first construct (in tree order) below `scope` whose props are invalid, after
 * checking that synthesis reports every one of its problems; `undefined` when every construct's props are valid.
 */
export function propsErrorIn(scope: Construct): NodeServiceError | undefined {
  const error = scope.node
    .findAll()
    .map((c) => propsError(c))
    .find((e) => e !== undefined);
  if (error === undefined) return undefined;
  let message: string | undefined;
  try {
    App.of(scope).synthYaml();
  } catch (e) {
    message = (e as Error).message;
  }
  if (message === undefined) throw new Error(`${error.constructPath}: invalid props, yet synthesis succeeded`);
  for (const p of error.problems) {
    const line = `- ${p.field} = ${p.value}: ${p.problem}. Fix: ${p.fix}`;
    if (!message.includes(line)) throw new Error(`synthesis does not report "${line}":\n${message}`);
  }
  return error;
}

/**
 * The {@link NodeServiceError} of `build` in a fresh chart: the one a function throws (invalid arguments), else the
 * one of the first construct with invalid props, which synthesis reports (fails when there is none).
 */
export function propsErrorOf(build: (scope: Construct) => void): NodeServiceError {
  const chart = testChart();
  try {
    build(chart);
  } catch (e) {
    if (e instanceof NodeServiceError) return e;
    throw new Error(`expected a NodeServiceError, got ${String(e)}`);
  }
  const error = propsErrorIn(chart);
  if (error === undefined) throw new Error('expected a construct with invalid props');
  return error;
}
