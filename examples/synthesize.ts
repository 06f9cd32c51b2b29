/**
 * Synthesizes `app` (a cdk8s App or a Fleet); when validation fails (policy errors, coverage targets), prints the readable message without a
 * stack trace and sets a non-zero exit code, so `cdk8s synth` fails with just the findings and their fixes.
 */
export function synthesize(app: { synth(): void }): void {
  try {
    app.synth();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  }
}
