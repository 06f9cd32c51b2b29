/**
 * Importing Windows DaemonSets: a HostProcess pod becomes a Windows-only node service (`windows`) with its Windows
 * commands and paths as written; a Windows pod of ordinary Windows containers cannot be expressed, and the import says
 * so plainly.
 */

import * as path from 'path';
import { importManifests, ImportResult } from '../../src/adopt';
import { parseObjects } from '../../src/manifests';
import { importFixture, REAL_WORLD, RUNTIME } from './support';

const ANTREA = 'antrea-agent-windows.yaml';
let antrea: ImportResult;

beforeAll(async () => {
  antrea = await importFixture(path.join(REAL_WORLD, ANTREA));
}, 60_000);

/** A Windows DaemonSet whose pod is `pod` (YAML of the pod spec's fields, indented for the template). */
function windowsDaemonSet(pod: string): string {
  return `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: win-agent, namespace: monitoring}
spec:
  selector: {matchLabels: {app: win-agent}}
  template:
    metadata: {labels: {app: win-agent}}
    spec:
${pod}`;
}

const importYaml = (text: string, check: boolean) => importManifests(parseObjects(text, 'win-agent.yaml'), { runtime: RUNTIME, check });

describe('import of a Windows HostProcess DaemonSet', () => {
  test('GIVEN antrea-agent-windows WHEN imported THEN it is a Windows-only service whose reason records the input file and field, for review', () => {
    const code = antrea.files.get('antrea-agent-windows.ts')!;
    expect(code).toContain(
      '// REVIEW: the input runs every container as a Windows HostProcess container (the Windows equivalent of privileged); confirm it needs to.',
    );
    expect(code).toContain(
      `imported from test/fixtures/real-world/${ANTREA}: spec.template.spec.securityContext.windowsOptions.hostProcess is true`,
    );
    // No Linux hardening is written for a HostProcess container, and neither the OS nor the Windows options are patched in.
    for (const linux of [
      'readOnlyRootFilesystem',
      'seccompProfile',
      'capabilities',
      'privileged:',
      '/spec/template/spec/os',
      '/securityContext/windowsOptions',
    ])
      expect(code).not.toContain(linux);
  });

  test('GIVEN antrea-agent-windows WHEN imported and synthesized THEN the pod is the input Windows HostProcess pod, commands and paths as written', () => {
    const ds = antrea.synthesized.find((o: any) => o.kind === 'DaemonSet') as any;
    const pod = ds.spec.template.spec;
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.securityContext).toEqual({ windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.initContainers[0].args).toEqual([
      '-file',
      '$env:CONTAINER_SANDBOX_MOUNT_POINT/var/lib/antrea-windows/Install-WindowsCNI-Containerd.ps1',
    ]);
    expect(pod.containers[0].args).toEqual([
      '-file',
      '$env:CONTAINER_SANDBOX_MOUNT_POINT/var/lib/antrea-windows/Run-AntreaAgent-Containerd.ps1',
    ]);
    for (const c of [...pod.initContainers, ...pod.containers]) expect(c.securityContext).toBeUndefined();
    expect(pod.volumes).toContainEqual({ name: 'host', hostPath: { path: '/', type: 'Directory' } });
    expect(antrea.report.unexplained).toBe(0);
  });

  test('GIVEN HostProcess set on every container with a user other than SYSTEM WHEN imported THEN windows runs as that user', async () => {
    const container = (name: string) => `        - name: ${name}
          image: registry.example.com/win-agent:1.0.0
          command: [powershell, -File, 'C:\\agent\\run.ps1']
          securityContext:
            windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service'}`;
    const text = windowsDaemonSet(`      hostNetwork: true
      nodeSelector: {kubernetes.io/os: windows}
      initContainers:
${container('setup')}
      containers:
${container('agent')}`);
    const result = await importYaml(text, true);
    const code = result.files.get('win-agent.ts')!;
    expect(code).toContain('runAsUserName: "NT AUTHORITY\\\\Local service"');
    expect(code).toContain('spec.template.spec.containers[*].securityContext.windowsOptions.hostProcess is true');
    const ds = result.synthesized.find((o: any) => o.kind === 'DaemonSet') as any;
    expect(ds.spec.template.spec.containers[0].command).toEqual(['powershell', '-File', 'C:\\agent\\run.ps1']);
    expect(result.report.problems).toEqual([]);
  });
});

describe('import of a Windows DaemonSet that is not HostProcess', () => {
  const text = windowsDaemonSet(`      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows}
      containers:
        - name: agent
          image: registry.example.com/win-agent:1.0.0
          securityContext:
            windowsOptions: {runAsUserName: ContainerUser}`);

  test.each([true, false])(
    'GIVEN check %s WHEN imported THEN the report says plainly the library cannot build it, and it does not pass',
    async (check) => {
      const result = await importYaml(text, check);
      expect(result.report.problems).toContainEqual(
        expect.stringContaining(
          'DaemonSet monitoring/win-agent (win-agent.yaml) runs Windows containers that are not HostProcess containers',
        ),
      );
      expect(result.report.problems.join('\n')).toContain('the library builds Windows pods only as HostProcess pods');
      expect(result.report.unexplained).toBeGreaterThan(0);
    },
  );
});
