import fc from 'fast-check';
import { diffManifests } from '../../src/day2/diff';
import { formatDiffMarkdown, formatDiffSarif, formatDiffText, formatPlanText } from '../../src/day2/format';
import { planRollouts } from '../../src/day2/plan';
import { daemonSet, inputs, node, podOf } from './support';
// The coverage analysis asks the rule catalogue whether the API server accepts a DaemonSet, as the package provides it.
import '../../src/policy/api-validity';

// Several CLI runs per test on a shared machine: time is not what these tests check.
jest.setTimeout(60_000);

// Manifests and cluster dumps are input the commands do not control: any JSON where an object is expected must give a
// report, never a TypeError.
const anyJson = fc.jsonValue({ maxDepth: 3 });
const FIELDS = ['containers', 'volumes', 'securityContext', 'hostNetwork', 'tolerations', 'nodeSelector', 'affinity', 'serviceAccountName'];

describe('hostile manifests', () => {
  test('GIVEN any JSON in pod-spec fields, strategy and selector THEN diff and plan report without throwing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), anyJson, anyJson, anyJson, (field, value, strategy, selector) => {
        const old = daemonSet();
        const changed = daemonSet({ spec: { [field]: value } });
        changed.spec.updateStrategy = strategy;
        changed.spec.selector = selector;
        const cluster = [node('n1'), node('n2', { ready: 'Unknown' })];
        const pods = [
          podOf(old, 'n1'),
          { kind: 'Pod', metadata: { namespace: 'ops', name: 'x', ownerReferences: [{ kind: 'DaemonSet', name: 'agent' }] }, spec: value },
        ];
        const diff = diffManifests(inputs(old), inputs(changed), { nodes: cluster, pods });
        formatDiffText(diff);
        formatDiffMarkdown(diff);
        formatDiffSarif(diff, '0.0.0');
        formatPlanText(planRollouts(inputs(changed), { nodes: cluster, pods, old: inputs(old) }));
        formatPlanText(planRollouts(inputs(changed), { nodes: cluster, pods }));
      }),
      { numRuns: 150 },
    );
  });
});
