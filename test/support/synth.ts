import { App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
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

/** Runs `build` in a fresh chart and returns the thrown error's message (fails when nothing is thrown). */
export function errorOf(build: (scope: Construct) => void): string {
  const chart = testChart();
  try {
    build(chart);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the construct to throw');
}
