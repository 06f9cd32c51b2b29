import { App } from 'cdk8s';

/**
 * Synthesizes `app`; when validation fails (policy errors, coverage targets), prints the readable message without a
 * stack trace and sets a non-zero exit code, so `cdk8s synth` fails with just the findings and their fixes.
 */
export function synthesize(app: App): void {
  try {
    app.synth();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  }
}
