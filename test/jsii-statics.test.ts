/**
 * jsii carries classes, interfaces and enums to Python, Java, Go and .NET, but drops free functions and constants
 * without a warning. Every free export of the package therefore has a static member of a class that other languages
 * reach; this test lists them and fails for a new free export without one.
 */
import * as ts from 'typescript';
import * as api from '../src';

/** Free export → its static member (`Class.MEMBER`). */
const STATIC_FORMS: { [freeExport: string]: string } = {
  KIND_ANNOTATION: 'NodeServiceKinds.ANNOTATION',
  kindProfile: 'NodeServiceKinds.profile',
  KUBERNETES_VERSIONS: 'ApiFields.SUPPORTED_VERSIONS',
  DEFAULT_KUBERNETES_VERSION: 'ApiFields.DEFAULT_VERSION',
  unknownFields: 'ApiFields.unknownFields',
  versionProblems: 'ApiFields.versionProblems',
  wrongTypeFields: 'ApiFields.wrongTypeFields',
  CONFIG_HASH_ANNOTATION: 'ConfigHash.ANNOTATION',
  READ_VERBS: 'ApiPermission.READ_VERBS',
  DEFAULT_NAMESPACE: 'NodeService.DEFAULT_NAMESPACE',
  CNI_PLUGIN_CAPABILITIES: 'CniPlugin.DEFAULT_CAPABILITIES',
  CNI_PLUGIN_RESOURCES: 'CniPlugin.DEFAULT_RESOURCES',
  CNI_BIN_MOUNT_PATH: 'CniPlugin.BIN_MOUNT_PATH',
  CNI_CONF_MOUNT_PATH: 'CniPlugin.CONF_MOUNT_PATH',
  CNI_INSTALLER_RESOURCES: 'CniPlugin.INSTALLER_RESOURCES',
  CSI_HEALTH_PORT: 'CsiNode.HEALTH_PORT',
  CSI_LIVENESS_PROBE_IMAGE: 'CsiNode.LIVENESS_PROBE_IMAGE',
  CSI_NODE_DRIVER_REGISTRAR_IMAGE: 'CsiNode.NODE_DRIVER_REGISTRAR_IMAGE',
  CSI_REGISTRAR_HEALTH_PORT: 'CsiNode.REGISTRAR_HEALTH_PORT',
  CSI_SIDECAR_RESOURCES: 'CsiNode.SIDECAR_RESOURCES',
  CSI_SOCKET_DIR: 'CsiNode.SOCKET_DIR',
  CSI_DRIVER_RESOURCES: 'CsiNode.DRIVER_RESOURCES',
  COMPLIANCE_SCANNER_RESOURCES: 'SecurityAgent.COMPLIANCE_RESOURCES',
  RUNTIME_SENSOR_CAPABILITIES: 'SecurityAgent.RUNTIME_CAPABILITIES',
  SECURITY_AGENT_HOST_ROOT: 'SecurityAgent.HOST_ROOT',
  SECURITY_AGENT_RESOURCES: 'SecurityAgent.RUNTIME_RESOURCES',
  LOG_AGENT_RESOURCES: 'LogAgent.DEFAULT_RESOURCES',
  MONITORING_AGENT_RESOURCES: 'MonitoringAgent.DEFAULT_RESOURCES',
  GPU_MONITOR_RESOURCES: 'GpuMonitor.DEFAULT_RESOURCES',
  POD_RESOURCES_DIR: 'GpuMonitor.POD_RESOURCES_DIR',
  DCGM_PROFILING_COUNTERS: 'GpuMonitor.PROFILING_COUNTERS_FILE',
  TRUST_LABEL_KEY: 'NodeServicesNamespace.TRUST_LABEL_KEY',
  TRUST_LABEL_VALUE: 'NodeServicesNamespace.TRUST_LABEL_VALUE',
  POD_SECURITY_LABEL_PREFIX: 'NodeServicesNamespace.POD_SECURITY_LABEL_PREFIX',
  DEFAULT_CRITICAL_PODS_LIMIT: 'NodeServicesNamespace.DEFAULT_CRITICAL_PODS_LIMIT',
  POD_SECURITY_POLICY_VERSION: 'PodSecurity.POLICY_VERSION',
  evaluatePodSecurity: 'PodSecurity.evaluate',
  strictestCommonLevel: 'PodSecurity.strictestCommonLevel',
  DEFAULT_KUBE_STATE_METRICS_SELECTOR: 'NodeServiceAlerts.DEFAULT_KUBE_STATE_METRICS_SELECTOR',
  checkManifests: 'PolicyEngine.check',
  SUPPRESSION_ANNOTATION_PREFIX: 'Suppressions.ANNOTATION_PREFIX',
  suppressionAnnotationKey: 'Suppressions.annotationKey',
  ON_DELETE_REASON_ANNOTATION: 'Suppressions.ON_DELETE_REASON_ANNOTATION',
};

/** The free (function or constant) exports of src/index.ts that are public (not `@internal`). */
function freeExports(): string[] {
  const program = ts.createProgram(['src/index.ts'], { strict: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const mod = checker.getSymbolAtLocation(program.getSourceFile('src/index.ts')!)!;
  const out: string[] = [];
  for (const s of checker.getExportsOfModule(mod)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (!(target.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable))) continue;
    const decl = target.declarations![0];
    const statement = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
    const internal = ts.getJSDocTags(statement).some((t) => t.tagName.text === 'internal');
    if (!internal) out.push(s.name);
  }
  return out.sort();
}

function member(path: string): unknown {
  const [cls, name] = path.split('.');
  return ((api as any)[cls] as any)?.[name];
}

describe('every free export has a static form for other languages', () => {
  const free = freeExports();

  test('GIVEN the package exports THEN every free function and constant is in the table, and the table has nothing else', () => {
    expect(free.length).toBeGreaterThan(30);
    expect(free).toEqual(Object.keys(STATIC_FORMS).sort());
  }, 60_000);

  test.each(Object.entries(STATIC_FORMS))('%s is reachable as %s', (name, path) => {
    const value = (api as any)[name];
    const statics = member(path);
    if (typeof value === 'function') {
      expect(typeof statics).toBe('function');
    } else {
      expect(statics).toEqual(value);
    }
  });

  test('GIVEN the function forms THEN they answer as the free functions do', () => {
    expect(api.NodeServiceKinds.profile('cni-plugin')).toEqual(api.kindProfile('cni-plugin'));
    expect(api.Suppressions.annotationKey('host-path-writable')).toBe(api.suppressionAnnotationKey('host-path-writable'));
    const pod = { spec: { containers: [{ name: 'c', image: 'x:1' }], hostNetwork: true } };
    expect(api.PodSecurity.evaluate(pod)).toEqual(api.evaluatePodSecurity(pod));
    const levels = [api.PodSecurityLevel.BASELINE, api.PodSecurityLevel.PRIVILEGED];
    expect(api.PodSecurity.strictestCommonLevel(levels)).toBe(api.strictestCommonLevel(levels));
    const service = { apiVersion: 'v1', kind: 'Service', spec: { typ: 'ClusterIP' } };
    expect(api.ApiFields.unknownFields(service)).toEqual(api.unknownFields(service));
    const typed = { apiVersion: 'v1', kind: 'Service', spec: { ports: [{ port: '80' }] } };
    expect(api.ApiFields.wrongTypeFields(typed)).toEqual(api.wrongTypeFields(typed));
    expect(api.wrongTypeFields(typed).map((f: { path: string }) => f.path)).toEqual(['spec.ports[0].port']);
  });
});
