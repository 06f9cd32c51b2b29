/**
 * Test support for synth-time checks of a whole App: a fresh App whose warning summaries are captured, the message
 * its synthesis fails with, and the folders of synthesized manifests.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { NodeServiceChecks } from '../../src/policy/synth';

/** A fresh App (with one chart `c`) whose synth-time warnings are captured in `warnings`. */
export function app(): { app: App; chart: Chart; warnings: string[] } {
  const a = new App({ outdir: path.join(os.tmpdir(), 'cdk8s-node-services-test') });
  const warnings: string[] = [];
  NodeServiceChecks.of(a, { logger: { log: (m: string) => void warnings.push(m) } });
  return { app: a, chart: new Chart(a, 'c'), warnings };
}

/** The message synthesis of `a` fails with (fails the test when it succeeds). */
export function synthError(a: App): string {
  try {
    a.synth();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected synthesis to fail');
}

/** Every object of the `*.k8s.yaml` files directly in `dir`, in file order. */
export function manifestObjects(dir: string): any[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.k8s.yaml'))
    .sort()
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map((d) => d.toJS()))
    .filter((o) => o);
}

/** What `NodeServiceAlerts` needs of a node service (construct), as a plain target. */
export function alertTargetOf(service: {
  name: string;
  namespace: string;
  kind: string;
  selector: { [key: string]: string };
  podSelector: { [key: string]: string };
  daemonSetNames: string[];
}) {
  return {
    name: service.name,
    namespace: service.namespace,
    kind: service.kind,
    selector: service.selector,
    podSelector: service.podSelector,
    daemonSetNames: service.daemonSetNames,
  };
}
