/**
 * The constructs' path: objects the library synthesizes come from typed props, but an escape hatch (a JSON patch on
 * the DaemonSet, a plain-JavaScript caller handing raw pod-spec pieces) can carry a value of the wrong type. The
 * synth-time check runs the same engine, so `cdk8s synth` refuses such output like `node-services lint` does.
 */

import { JsonPatch, Testing } from 'cdk8s';
import { ContainerSpec, NodeRequirement, NodeService, Probe } from '../../src';
import { only, synth, testChart } from '../support/synth';

const main: ContainerSpec = {
  name: 'main',
  image: 'registry.example.com/agent:1.2.3',
  ports: [{ name: 'http', containerPort: 8080 }],
  readiness: Probe.httpGet('/ready', 'http'),
};

function synthError(patch: (svc: NodeService) => void): string {
  const chart = testChart();
  const svc = new NodeService(chart, 'svc', { name: 'agent', containers: [main] });
  patch(svc);
  try {
    Testing.synth(chart);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected synth to fail');
}

describe('synth refuses values of the wrong type that escape hatches put in the output', () => {
  test('a JSON patch that writes hostNetwork "true" and a port past int32 fails synth, naming both fields', () => {
    // GIVEN a NodeService whose DaemonSet is patched through the cdk8s escape hatch
    const message = synthError((svc) => {
      svc.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostNetwork', 'true'));
      svc.daemonSet.addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/ports/0/containerPort', 3000000000));
    });
    // THEN synthesis fails with the decoding errors of both values
    expect(message).toContain('field-type-invalid');
    expect(message).toContain('field "spec.template.spec.hostNetwork" is the string "true"; a boolean (true or false) goes here');
    expect(message).toContain(
      'field "spec.template.spec.containers[0].ports[0].containerPort" is 3000000000, beyond the range of an int32',
    );
  });

  test('a raw toleration with tolerationSeconds as a string, added by a patch, fails synth', () => {
    const message = synthError((svc) =>
      svc.daemonSet.addJsonPatch(
        JsonPatch.add('/spec/template/spec/tolerations', [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: '30' }]),
      ),
    );
    expect(message).toMatch(/field "spec\.template\.spec\.tolerations\[0\]\.tolerationSeconds" is the string "30"; an int64/);
  });

  test('without a patch the same service synthesizes (the typed props never produce a wrong type)', () => {
    const chart = testChart();
    new NodeService(chart, 'svc', { name: 'agent', containers: [main] });
    expect(only(synth(chart), 'DaemonSet').spec.template.spec.containers[0].ports[0].containerPort).toBe(8080);
  });
});

describe('the constructs still refuse a node affinity threshold that never matches', () => {
  test('NodeRequirement.gt with a fraction is refused (the API server would accept it, and the term would match no node)', () => {
    // GIVEN a Gt threshold that labels.NewRequirement cannot parse as a base-10 integer
    const chart = testChart();
    let message = '';
    try {
      new NodeService(chart, 'svc', {
        name: 'agent',
        containers: [main],
        nodeAffinity: [{ requirements: [NodeRequirement.gt('example.com/cores', 1.5)] }],
      });
      Testing.synth(chart);
    } catch (e) {
      message = (e as Error).message;
    }
    // THEN the factory refuses it where it is called, naming its argument and the fix
    expect(message).toMatch(/NodeRequirement\.gt\(value\) = 1\.5: must be a whole number/);
  });
});
