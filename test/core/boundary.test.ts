/**
 * The props boundary: every prop is declared once, every declared prop is type-checked at runtime (a wrong-type test
 * per prop, generated from the TypeScript declarations and the shape tables), and one error lists every problem.
 */

import * as ts from 'typescript';
import { Construct } from 'constructs';
import { CniPlugin, ContainerSpec, CsiNode, GpuMonitor, LogAgent, MonitoringAgent, NodeService, SecurityAgent, Variant } from '../../src';
import { CONTAINER_SPEC_SHAPE } from '../../src/core/props';
import { wrongValueFor } from '../../src/k8s/shape';
import { apiProgram, interfacesIn, propertiesOf } from '../support/props';
import { propsErrorOf, synth, testChart } from '../support/synth';

const checker = apiProgram().getTypeChecker();

/** Whether an interface is the overrides of canaries and variants, or extends it. */
function isOverrideGroup(n: ts.InterfaceDeclaration): boolean {
  const extendsOverrides = (t: ts.Type): boolean =>
    t.symbol?.name === 'OverrideOptions' || (checker.getBaseTypes(t as ts.InterfaceType) ?? []).some(extendsOverrides);
  return extendsOverrides(checker.getTypeAtLocation(n.name));
}

/** The option groups and props interfaces of the core and the presets. */
function optionInterfaces(): ts.InterfaceDeclaration[] {
  return interfacesIn(['core', 'presets'], /(Props|Options|ContainerSpec|CniInstaller)$/).filter(
    (n) => !/^((Probe|HttpProbe|Toleration|HostPath|WritableHostPath|Mount|EmptyDir)Options|NodePoolProps)$/.test(n.name.text),
  );
}

/**
 * The interfaces that make up the props of the constructs: the option groups, the props and the container spec. The
 * overrides of canaries and variants (a DaemonSet's own values of service fields, such as its image) are checked
 * among themselves.
 */
function propInterfaces(): ts.InterfaceDeclaration[] {
  return optionInterfaces().filter((n) => !isOverrideGroup(n));
}

/** Where each property of `interfaces` is declared, for those declared in more than one. */
function declaredTwice(interfaces: ts.InterfaceDeclaration[]): string[] {
  const declaredIn = new Map<string, string[]>();
  for (const i of interfaces) {
    for (const m of i.members) {
      if (ts.isPropertySignature(m)) declaredIn.set(m.name.getText(), [...(declaredIn.get(m.name.getText()) ?? []), i.name.text]);
    }
  }
  return [...declaredIn].filter(([, where]) => where.length > 1).map(([name]) => name);
}

/** Whether the declared type of a property is a string (or a string enum). */
function isStringProp(iface: string, prop: string): boolean {
  const decl = propInterfaces().find((i) => i.name.text === iface)!;
  const symbol = checker.getTypeAtLocation(decl).getProperty(prop)!;
  const type = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, decl));
  return (
    (type.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral | ts.TypeFlags.EnumLike)) !== 0 ||
    (type.isUnion() && type.types.every((t) => (t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.EnumLiteral)) !== 0))
  );
}

describe('props are declared once', () => {
  /** Names that are two different things (Kubernetes has them at two levels), each with why. */
  const DIFFERENT_THINGS: { [name: string]: string } = {
    name: "the service's name (NodeServiceProps, presets) and a container's name (ContainerSpec)",
    runAsUser: 'pod-level (NodeServiceProps) and container-level (ContainerSecurityOptions), as in Kubernetes',
    runAsGroup: 'pod-level (NodeServiceProps) and container-level (ContainerSecurityOptions), as in Kubernetes',
    image: "the CNI installer's image is optional (it defaults to the agent's), a container's is required",
  };

  test('GIVEN every props interface THEN no property is declared in two of them, except names for different things', () => {
    expect(declaredTwice(propInterfaces()).sort()).toEqual(Object.keys(DIFFERENT_THINGS).sort());
  });

  test('GIVEN the options of canaries and variants THEN they share one overrides group and no property is declared twice', () => {
    const groups = optionInterfaces().filter(isOverrideGroup);
    expect(groups.map((n) => n.name.text).sort()).toEqual(
      ['CanaryOptions', 'OverrideOptions', 'PoolVariantOptions', 'VariantOptions', 'WindowsVariantOptions'].sort(),
    );
    expect(declaredTwice(groups)).toEqual([]);
  });

  test('GIVEN the core options THEN every preset offers them (the option groups are inherited, not copied)', () => {
    const core = propertiesOf('NodeServiceProps');
    // `windows` too: a preset's containers carry its Linux defaults (capabilities, seccomp, host paths), so a
    // Windows-only agent is a NodeService.
    const presetOnly = ['kind', 'containers', 'initContainers', 'hostNetwork', 'hostPID', 'dnsPolicy', 'windows'];
    for (const preset of [
      'LogAgentProps',
      'MonitoringAgentProps',
      'GpuMonitorProps',
      'CniPluginProps',
      'CsiNodeProps',
      'SecurityAgentProps',
    ]) {
      const missing = core.filter((p) => !presetOnly.includes(p) && !propertiesOf(preset).includes(p));
      expect({ preset, missing }).toEqual({ preset, missing: [] });
    }
  });
});

const image = 'registry.example.com/agent:1.2.3';
const container: ContainerSpec = { name: 'main', image };

/** Each construct with the least valid props, and the interface its props are declared by. */
const constructs: Array<[string, string, any, (scope: Construct, props: any) => void]> = [
  ['NodeService', 'NodeServiceProps', { name: 'agent', containers: [container] }, (s, p) => new NodeService(s, 'x', p)],
  ['LogAgent', 'LogAgentProps', { image }, (s, p) => new LogAgent(s, 'x', p)],
  ['MonitoringAgent', 'MonitoringAgentProps', { image }, (s, p) => new MonitoringAgent(s, 'x', p)],
  ['GpuMonitor', 'GpuMonitorProps', { image }, (s, p) => new GpuMonitor(s, 'x', p)],
  ['CniPlugin', 'CniPluginProps', { image, install: { command: ['/install.sh'] }, healthPort: 8081 }, (s, p) => new CniPlugin(s, 'x', p)],
  ['CsiNode', 'CsiNodeProps', { image, driverName: 'ebs.csi.aws.com' }, (s, p) => new CsiNode(s, 'x', p)],
  ['SecurityAgent', 'SecurityAgentProps', { image }, (s, p) => new SecurityAgent(s, 'x', p)],
];

const errorFrom = propsErrorOf;

describe.each(constructs)('%s: a wrong-type value in any prop', (what, iface, base, build) => {
  const props = propertiesOf(iface);
  test('GIVEN the least valid props THEN it builds', () => {
    const chart = testChart();
    build(chart, base);
    expect(() => synth(chart)).not.toThrow();
  });
  test.each(props)(`GIVEN %s of the wrong type THEN one problem names it, and no other field`, (prop) => {
    const wrong = isStringProp(iface, prop) ? 42 : 'not-the-right-type';
    const error = errorFrom((scope) => build(scope, { ...base, [prop]: wrong }));
    expect(error.problems.filter((p) => p.field === prop)).toHaveLength(1);
    expect(error.problems.map((p) => p.field)).toEqual([prop]);
    expect(error.message).toContain(`[test/x] invalid props (1 problem)`);
    expect(error.message).toContain(`- ${prop} = ${JSON.stringify(wrong)}: must be`);
    expect(what).toBeDefined();
  });
});

describe('ContainerSpec: a wrong-type value in any field (generated from the shape table)', () => {
  test.each(Object.keys(CONTAINER_SPEC_SHAPE))('GIVEN containers[0].%s of the wrong type THEN one problem names it', (field) => {
    const wrong = wrongValueFor(CONTAINER_SPEC_SHAPE[field].shape);
    const error = errorFrom(
      (scope) => new NodeService(scope, 'x', { name: 'agent', containers: [{ ...container, [field]: wrong } as any] }),
    );
    expect(error.problems.map((p) => p.field)).toEqual([`containers[0].${field}`]);
    expect(error.problems[0].problem).toMatch(/^must be /);
  });
});

describe('one error, every problem, as written', () => {
  test('GIVEN props that are not an object THEN one problem, no TypeError', () => {
    for (const [, , , build] of constructs) {
      for (const bad of [undefined, null, 0, 'x', [], true]) {
        const error = errorFrom((scope) => build(scope, bad));
        expect(error.problems.map((p) => p.field)).toEqual(['props']);
      }
    }
  });

  test('GIVEN prop names that are Object.prototype members THEN each is an unknown option, at every level, no TypeError', () => {
    const members = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];
    for (const [what, , base, build] of constructs) {
      for (const name of members) {
        // JSON.parse makes every key an own property, `__proto__` included, as input from plain JavaScript may be.
        const props = { ...base, ...JSON.parse(`{"${name}": 1}`) };
        const error = errorFrom((scope) => build(scope, props));
        expect({ what, fields: error.problems.map((p) => p.field) }).toEqual({ what, fields: [name] });
        expect(error.problems[0].problem).toContain('is not an option');
      }
    }
    for (const name of members) {
      const c = { ...container, ...JSON.parse(`{"${name}": 1}`) };
      const error = errorFrom((scope) => new NodeService(scope, 'x', { name: 'agent', containers: [c] }));
      expect(error.problems.map((p) => `${p.field}: ${p.problem}`)).toEqual([`containers[0].${name}: is not an option here`]);
    }
  });

  test('GIVEN a container named constructor THEN a variant without an image for it keeps its image', () => {
    const named = { ...container, name: 'constructor' };
    const error = errorFrom(
      (scope) =>
        new NodeService(scope, 'x', {
          name: 'agent',
          containers: [named],
          variants: [Variant.byNodeLabel('v', 'node.example.com/pool', ['a'], { images: { other: 'registry.example.com/other:1.0.0' } })],
        }),
    );
    expect(error.problems.map((p) => `${p.field} = ${p.value}: ${p.problem}`)).toEqual([
      'variants[0].images["other"] = "registry.example.com/other:1.0.0": names no container of the service',
    ]);
  });

  test('GIVEN a map key cdk8s cannot render (constructor) THEN the prop is named, instead of a failed synthesis', () => {
    for (const prop of ['labels', 'nodeSelector', 'annotations', 'podAnnotations']) {
      const error = errorFrom(
        (scope) => new NodeService(scope, 'x', { name: 'agent', containers: [container], [prop]: { constructor: 'x' } }),
      );
      expect(error.problems.map((p) => `${p.field}: ${p.problem}`)).toEqual([
        `${prop}["constructor"]: is a key cdk8s cannot render (it takes an object with this key for a class instance)`,
      ]);
    }
  });

  test('GIVEN an extended resource named __proto__ THEN it is reported, not dropped', () => {
    const resources = JSON.parse('{"cpuRequest":"100m","memoryRequest":"64Mi","memoryLimit":"64Mi","extended":{"__proto__":"1"}}');
    const error = errorFrom((scope) => new NodeService(scope, 'x', { name: 'agent', containers: [{ ...container, resources }] }));
    expect(error.problems.map((p) => p.field)).toEqual(['containers[0].resources.extended["__proto__"]']);
    expect(error.problems[0].fix).toContain('resource name');
  });

  test('GIVEN an unknown prop THEN it is named with the closest option', () => {
    const error = errorFrom((scope) => new LogAgent(scope, 'x', { image, priorityClassNmae: 'x' } as any));
    expect(error.message).toContain('- priorityClassNmae = "x": is not an option of LogAgent. Fix: did you mean "priorityClassName"?');
  });

  test('GIVEN a core prop a preset does not offer THEN the error says why', () => {
    const error = errorFrom(
      (scope) => new CniPlugin(scope, 'x', { image, install: { command: ['i'] }, healthPort: 1, hostNetwork: false } as any),
    );
    expect(error.message).toContain(
      "- hostNetwork = false: is not an option of CniPlugin: the kind decides whether the service needs the host's network",
    );
  });

  test('GIVEN preset-level and core-level problems THEN they come in one error', () => {
    const error = errorFrom(
      (scope) => new SecurityAgent(scope, 'x', { image: 'x/y:latest', runtimeSocket: '/etc/shadow', healthPort: 70000, name: 'Bad_Name' }),
    );
    expect(error.problems.map((p) => p.field).sort()).toEqual(['healthPort', 'image', 'name', 'runtimeSocket']);
  });

  test('GIVEN apiAccess and a bad name THEN the derived ServiceAccount name is not reported as if set', () => {
    const error = errorFrom((scope) => new LogAgent(scope, 'x', { image, name: 'Bad_Name' }));
    expect(error.problems.map((p) => p.field)).toEqual(['name']);
  });

  test('GIVEN values JSON cannot show THEN they are shown as given', () => {
    const error = errorFrom(
      (scope) =>
        new NodeService(scope, 'x', { name: 'agent', containers: [container], minReadySeconds: NaN, revisionHistoryLimit: 2147483648 }),
    );
    expect(error.message).toContain('- minReadySeconds = NaN: must be a whole number');
    expect(error.message).toContain('- revisionHistoryLimit = 2147483648: must be a whole number between 0 and 2147483647');
  });

  test('GIVEN an uncaught NodeServiceError THEN it prints its message only', () => {
    const error = errorFrom((scope) => new LogAgent(scope, 'x', { image: 'x' }));
    expect(Object.keys(error)).toEqual([]);
    expect(error.stack).toBe(`NodeServiceError: ${error.message}`);
    expect(require('util').inspect(error)).toBe(`NodeServiceError: ${error.message}`);
  });
});
