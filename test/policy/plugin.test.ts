import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { IValidationContext, NodeServicesValidation, ValidationViolation } from '../../src/policy/plugin';
import { compliantDaemonSet, mainContainer } from './support';

class FakeContext implements IValidationContext {
  public readonly violations: ValidationViolation[] = [];
  public readonly submitted: Array<{ status: string; metadata?: { [key: string]: string } }> = [];
  public readonly report = {
    addViolation: (v: ValidationViolation) => void this.violations.push(v),
    submit: (status: string, metadata?: { [key: string]: string }) => void this.submitted.push({ status, metadata }),
  };
  constructor(public readonly manifests: string[]) {}
}

function writeManifests(docs: any[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-test-'));
  const file = path.join(dir, 'app.k8s.yaml');
  fs.writeFileSync(file, docs.map((d) => JSON.stringify(d)).join('\n---\n'));
  return file;
}

describe('NodeServicesValidation (cdk8s CLI validation plugin)', () => {
  test('reports error findings per rule with resource, locations and manifest, and fails', async () => {
    // GIVEN a synthesized file with a ':latest' image and a missing readiness probe
    const ds = compliantDaemonSet();
    mainContainer(ds).image = 'fluent/fluent-bit:latest';
    delete mainContainer(ds).readinessProbe;
    const file = writeManifests([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } }, ds]);
    const context = new FakeContext([file]);
    // WHEN the plugin validates it
    await new NodeServicesValidation({}).validate(context);
    // THEN both rules are violations, the report fails, and the summary counts them
    const byRule = Object.fromEntries(context.violations.map((v) => [v.ruleName, v]));
    expect(byRule['image-not-pinned']).toMatchObject({
      violatingResources: [{ resourceName: 'fluent-bit', locations: ['spec.template.spec.containers[0].image'], manifestPath: file }],
    });
    expect(byRule['image-not-pinned'].recommendation).toMatch(/^\[error\] Image not pinned.*fluent\/fluent-bit:latest/);
    expect(byRule['image-not-pinned'].fix).toMatch(/version tag/);
    expect(byRule['readiness-probe-missing'].recommendation).toMatch(/^\[warning\]/);
    expect(context.submitted).toEqual([{ status: 'failure', metadata: { daemonsets: '1', errors: '1', warnings: '1', suppressed: '0' } }]);
  });

  test('succeeds with warnings only, and can leave warnings out', async () => {
    const ds = compliantDaemonSet();
    delete mainContainer(ds).readinessProbe;
    const file = writeManifests([ds]);
    const withWarnings = new FakeContext([file]);
    const withoutWarnings = new FakeContext([file]);
    await new NodeServicesValidation().validate(withWarnings);
    await new NodeServicesValidation({ reportWarnings: false }).validate(withoutWarnings);
    expect(withWarnings.violations.map((v) => v.ruleName)).toEqual(['readiness-probe-missing']);
    expect(withWarnings.submitted[0].status).toBe('success');
    expect(withoutWarnings.violations).toEqual([]);
    expect(withoutWarnings.submitted[0].status).toBe('success');
  });

  test('applies properties and a config file', async () => {
    // GIVEN a config file raising readiness-probe-missing to error and properties with a registry allowlist
    const ds = compliantDaemonSet();
    delete mainContainer(ds).readinessProbe;
    const file = writeManifests([ds]);
    const configFile = path.join(path.dirname(file), 'policy.yaml');
    fs.writeFileSync(configFile, 'rules:\n  readiness-probe-missing: error\n');
    const context = new FakeContext([file]);
    // WHEN validated
    await new NodeServicesValidation({ configFile, imageRegistries: ['registry.example.com/'] }).validate(context);
    // THEN both the file's level and the properties' allowlist apply
    expect(context.violations.map((v) => [v.ruleName, v.recommendation.slice(0, 7)]).sort()).toEqual([
      ['image-registry-not-allowed', '[error]'],
      ['readiness-probe-missing', '[error]'],
    ]);
    expect(context.submitted[0].status).toBe('failure');
  });

  test('refuses an invalid configuration when constructed', () => {
    expect(() => new NodeServicesValidation({ rules: { 'no-such-rule': 'off' as any } })).toThrow(
      /properties: rules: unknown rule id 'no-such-rule'/,
    );
  });

  test('reads the manifests with YAML 1.1, as cdk8s writes them and kubectl reads them', async () => {
    // GIVEN a manifest whose label value is a plain 0o17 (a string in YAML 1.1, the number 15 in YAML 1.2)
    const ds = compliantDaemonSet();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-test-'));
    const file = path.join(dir, 'app.k8s.yaml');
    const text = JSON.stringify(ds, null, 2).replace('"app.kubernetes.io/version": "3.0.7"', '"app.kubernetes.io/version": 0o17');
    fs.writeFileSync(file, text.replace(/^\{/, '# YAML flow style\n{'));
    const context = new FakeContext([file]);
    // WHEN validated THEN no label is invalid: 0o17 is the string '0o17'
    await new NodeServicesValidation({}).validate(context);
    expect(context.violations.map((v) => v.ruleName)).not.toContain('label-invalid');
    expect(context.submitted[0].status).toBe('success');
  });
});
