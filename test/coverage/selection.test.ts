/**
 * nodeSelector, required node affinity and taints vs tolerations (research/daemonset-scheduling.md §5, §6).
 */

import { CoverageReason, checkPodOnNode, compileWorkload } from '../../src/coverage';
import { daemonSet, node, requiredAffinity, template } from './support';

const expr = (key: string, operator: string, values?: unknown[]) => ({ key, operator, ...(values ? { values } : {}) });
/** Whether a template with one term made of `exprs` is desired on a node with `labels`. */
const matches = (labels: Record<string, string>, ...exprs: any[]) =>
  checkPodOnNode(template({ affinity: requiredAffinity({ matchExpressions: exprs }) }), node('n1', { labels })).desired;

describe('§5.1 spec.nodeSelector', () => {
  test('§5.1 an empty or absent map puts no constraint', () => {
    expect(checkPodOnNode(template({ nodeSelector: {} }), node('n1')).desired).toBe(true);
    expect(checkPodOnNode(template(), node('n1')).desired).toBe(true);
  });

  test('§5.1 every entry needs the label present and exactly equal (case-sensitive)', () => {
    const t = template({ nodeSelector: { pool: 'GPU' } });
    expect(checkPodOnNode(t, node('n1', { labels: { pool: 'GPU' } })).desired).toBe(true);
    const verdict = checkPodOnNode(t, node('n1', { labels: { pool: 'gpu' } }));
    expect(verdict).toMatchObject({ desired: false, reason: CoverageReason.NODE_SELECTOR });
    expect(verdict.detail).toBe('needs label pool="GPU"; node has pool="gpu"');
  });

  test('§5.1 a value "" needs the label present with an empty value; it is not "exists"', () => {
    const t = template({ nodeSelector: { 'node-role.kubernetes.io/edge': '' } });
    expect(checkPodOnNode(t, node('n1', { labels: { 'node-role.kubernetes.io/edge': '' } })).desired).toBe(true);
    expect(checkPodOnNode(t, node('n1', { labels: { 'node-role.kubernetes.io/edge': 'true' } })).desired).toBe(false);
    expect(checkPodOnNode(t, node('n1')).detail).toBe(
      'needs label node-role.kubernetes.io/edge=""; node has no label node-role.kubernetes.io/edge',
    );
  });

  test('§5.1 entries are ANDed; the detail names the first failing label in key order (SelectorFromSet sorts)', () => {
    const t = template({ nodeSelector: { zone: 'a', arch: 'arm64' } });
    const verdict = checkPodOnNode(t, node('n1', { labels: { zone: 'b', arch: 'amd64' } }));
    expect(verdict.detail).toBe('needs label arch="arm64"; node has arch="amd64"');
    expect(checkPodOnNode(t, node('n1', { labels: { zone: 'a', arch: 'arm64' } })).desired).toBe(true);
  });

  test('§5.1 the nodeSelector is checked before required affinity', () => {
    const t = template({ nodeSelector: { pool: 'x' }, affinity: requiredAffinity({ matchExpressions: [expr('zone', 'In', ['z'])] }) });
    const verdict = checkPodOnNode(t, node('n1'));
    expect(verdict.reason).toBe(CoverageReason.NODE_SELECTOR);
    expect(verdict.alsoFails.map((f) => f.reason)).toEqual([CoverageReason.NODE_AFFINITY]);
  });

  test('§5.1 a value that is not a string (unquoted YAML true) is compared as text and warned about', () => {
    const w = compileWorkload(daemonSet('gpu', { nodeSelector: { 'nvidia.com/gpu.present': true } }));
    expect(w.warnings.join('\n')).toMatch(
      /spec\.template\.spec\.nodeSelector\.nvidia\.com\/gpu\.present is true \(boolean\), not a string.*Quote the value/,
    );
  });
});

describe('§5.2 required node affinity', () => {
  test('§5.2 nodeAffinity: {} or preferred-only affinity puts no constraint', () => {
    expect(checkPodOnNode(template({ affinity: { nodeAffinity: {} } }), node('n1')).desired).toBe(true);
    expect(checkPodOnNode(template({ affinity: {} }), node('n1')).desired).toBe(true);
  });

  test('§5.2 terms are ORed', () => {
    const t = template({
      affinity: requiredAffinity({ matchExpressions: [expr('zone', 'In', ['a'])] }, { matchExpressions: [expr('zone', 'In', ['b'])] }),
    });
    expect(checkPodOnNode(t, node('n1', { labels: { zone: 'b' } })).desired).toBe(true);
    const verdict = checkPodOnNode(t, node('n1', { labels: { zone: 'c' } }));
    expect(verdict.reason).toBe(CoverageReason.NODE_AFFINITY);
    expect(verdict.detail).toBe('term 0: zone In [a] fails (node has zone="c"); term 1: zone In [b] fails (node has zone="c")');
  });

  test('§5.2 empty nodeSelectorTerms match nothing (and are warned about)', () => {
    const t = template({ affinity: requiredAffinity() });
    expect(checkPodOnNode(t, node('n1'))).toMatchObject({ desired: false, reason: CoverageReason.NODE_AFFINITY });
    expect(compileWorkload(daemonSet('a', { affinity: requiredAffinity() })).warnings.join('\n')).toMatch(
      /nodeSelectorTerms is empty, so the DaemonSet matches no node/,
    );
  });

  test('§5.2 a term with neither matchExpressions nor matchFields matches nothing, the other terms still count', () => {
    const onlyEmpty = template({ affinity: requiredAffinity({}) });
    expect(checkPodOnNode(onlyEmpty, node('n1')).desired).toBe(false);
    const withOther = template({
      affinity: requiredAffinity({ matchExpressions: [] }, { matchExpressions: [expr('kubernetes.io/os', 'In', ['linux'])] }),
    });
    expect(checkPodOnNode(withOther, node('n1')).desired).toBe(true);
  });

  test('§5.2 inside a term, expressions and fields are ANDed', () => {
    const t = template({
      affinity: requiredAffinity({ matchExpressions: [expr('zone', 'In', ['a'])], matchFields: [expr('metadata.name', 'In', ['n1'])] }),
    });
    expect(checkPodOnNode(t, node('n1', { labels: { zone: 'a' } })).desired).toBe(true);
    expect(checkPodOnNode(t, node('n2', { labels: { zone: 'a' } })).desired).toBe(false);
    expect(checkPodOnNode(t, node('n1', { labels: { zone: 'b' } })).desired).toBe(false);
  });

  test('§5.2 a term that fails to parse never matches, but the other terms are still evaluated', () => {
    const t = template({
      affinity: requiredAffinity({ matchExpressions: [expr('zone', 'Gt', ['-1'])] }, { matchExpressions: [expr('zone', 'In', ['a'])] }),
    });
    expect(checkPodOnNode(t, node('n1', { labels: { zone: 'a' } })).desired).toBe(true);
    const verdict = checkPodOnNode(t, node('n1', { labels: { zone: '5' } }));
    expect(verdict.desired).toBe(false);
    expect(verdict.detail).toMatch(
      /^term 0 is invalid and matches no node \(matchExpressions\[0\]\.values\[0\] "-1" is not a valid label value/,
    );
  });
});

describe('§5.3 matchExpressions operators and parsing', () => {
  test('§5.3 In: label present and its value in the list', () => {
    expect(matches({ zone: 'b' }, expr('zone', 'In', ['a', 'b']))).toBe(true);
    expect(matches({ zone: 'c' }, expr('zone', 'In', ['a', 'b']))).toBe(false);
    expect(matches({}, expr('zone', 'In', ['a', 'b']))).toBe(false);
  });

  test('§5.3 NotIn: label absent, or present with a value not in the list', () => {
    expect(matches({}, expr('zone', 'NotIn', ['a']))).toBe(true);
    expect(matches({ zone: 'b' }, expr('zone', 'NotIn', ['a']))).toBe(true);
    expect(matches({ zone: 'a' }, expr('zone', 'NotIn', ['a']))).toBe(false);
  });

  test('§5.3 Exists: label present with any value, including ""', () => {
    expect(matches({ edge: '' }, expr('edge', 'Exists'))).toBe(true);
    expect(matches({}, expr('edge', 'Exists'))).toBe(false);
  });

  test('§5.3 DoesNotExist: label absent', () => {
    expect(matches({}, expr('edge', 'DoesNotExist'))).toBe(true);
    expect(matches({ edge: '' }, expr('edge', 'DoesNotExist'))).toBe(false);
  });

  test('§5.3 Gt / Lt: strict integer comparison', () => {
    expect(matches({ gen: '6' }, expr('gen', 'Gt', ['5']))).toBe(true);
    expect(matches({ gen: '5' }, expr('gen', 'Gt', ['5']))).toBe(false);
    expect(matches({ gen: '4' }, expr('gen', 'Lt', ['5']))).toBe(true);
    expect(matches({ gen: '5' }, expr('gen', 'Lt', ['5']))).toBe(false);
    expect(matches({}, expr('gen', 'Gt', ['5']))).toBe(false);
  });

  test('§5.3 Gt / Lt: a label that does not parse as an integer is false, not an error', () => {
    expect(matches({ gen: 'six' }, expr('gen', 'Gt', ['5']))).toBe(false);
    expect(matches({ gen: 'six' }, expr('gen', 'Lt', ['5']))).toBe(false);
  });

  test('§5.3 Gt / Lt: leading zeros are fine ("0206" > "0204")', () => {
    expect(matches({ build: '0206' }, expr('build', 'Gt', ['0204']))).toBe(true);
  });

  test('§5.3 Gt / Lt: values beyond int64 do not parse; int64 edges compare exactly', () => {
    expect(matches({ n: '1' }, expr('n', 'Lt', ['9223372036854775808']))).toBe(false);
    expect(matches({ n: '9223372036854775807' }, expr('n', 'Gt', ['9223372036854775806']))).toBe(true);
    expect(matches({ n: '9223372036854775806' }, expr('n', 'Gt', ['9223372036854775807']))).toBe(false);
  });

  test.each([
    ['Gt with two values', expr('gen', 'Gt', ['1', '2'])],
    ['Gt with no value', expr('gen', 'Gt', [])],
    ['Gt with a non-integer', expr('gen', 'Gt', ['1.5'])],
    ['Gt ["-1"] (an integer, but not a valid label value)', expr('gen', 'Gt', ['-1'])],
    ['In without values', expr('gen', 'In', [])],
    ['NotIn without values', expr('gen', 'NotIn', [])],
    ['NotIn with an invalid label value', expr('gen', 'NotIn', ['invalid value: ___@#$%^'])],
    ['NotIn with a value longer than 63 characters', expr('gen', 'NotIn', ['x'.repeat(64)])],
    ['Exists with values', expr('gen', 'Exists', ['1'])],
    ['DoesNotExist with values', expr('gen', 'DoesNotExist', ['1'])],
    ['an unknown operator', expr('gen', 'Equals', ['1'])],
    ['an invalid key', expr('bad key!', 'DoesNotExist')],
  ])('§5.3 parse error → the term never matches: %s', (_name, e) => {
    // GIVEN a term that also holds a requirement the node satisfies
    // WHEN evaluated on a node that would satisfy any sane reading
    // THEN the whole term never matches
    expect(matches({ gen: '3', ok: 'yes' }, expr('ok', 'Exists'), e)).toBe(false);
    // AND the analysis warns that the term is accepted but never matches
    const w = compileWorkload(daemonSet('a', { affinity: requiredAffinity({ matchExpressions: [expr('ok', 'Exists'), e] }) }));
    expect(w.warnings.join('\n')).toMatch(
      /nodeSelectorTerms\[0\] is accepted by the API server but never matches a node: matchExpressions\[1\]/,
    );
  });

  test('§5.3 the API server accepts these terms, so the analysis warns that they cover nothing', () => {
    const w = compileWorkload(daemonSet('a', { affinity: requiredAffinity({ matchExpressions: [expr('gen', 'Gt', ['-1'])] }) }));
    expect(w.warnings.join('\n')).toMatch(
      /nodeSelectorTerms\[0\] is accepted by the API server but never matches a node: .*"-1" is not a valid label value/,
    );
  });

  test('§5.3 key metadata.name in matchExpressions refers to a label of that name, not to the node name', () => {
    expect(matches({}, expr('metadata.name', 'In', ['n1']))).toBe(false);
    expect(matches({ 'metadata.name': 'n1' }, expr('metadata.name', 'In', ['n1']))).toBe(true);
  });
});

describe('§5.4 matchFields', () => {
  const fields = (operator: string, values: string[], name = 'n1', labels: Record<string, string> = {}) =>
    checkPodOnNode(
      template({ affinity: requiredAffinity({ matchFields: [{ key: 'metadata.name', operator, values }] }) }),
      node(name, { labels }),
    ).desired;

  test('§5.4 In [x] means node name == x; NotIn [x] means node name != x', () => {
    expect(fields('In', ['n1'])).toBe(true);
    expect(fields('In', ['n2'])).toBe(false);
    expect(fields('NotIn', ['n1'])).toBe(false);
    expect(fields('NotIn', ['n2'])).toBe(true);
  });

  test('§5.4 a node label called metadata.name is never consulted', () => {
    expect(fields('In', ['n2'], 'n1', { 'metadata.name': 'n2' })).toBe(false);
  });

  test('§5.4 exactly one value, and only In / NotIn; otherwise the term never matches', () => {
    expect(fields('In', ['n1', 'n2'])).toBe(false);
    expect(fields('In', [])).toBe(false);
    expect(fields('Exists', [])).toBe(false);
  });

  test('§5.4 the detail names the field and the node', () => {
    const t = template({ affinity: requiredAffinity({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }) });
    expect(checkPodOnNode(t, node('n1')).detail).toBe('term 0: field metadata.name In [n2] fails (node is n1)');
  });
});

describe('§6 taints and tolerations (ToleratesTaint)', () => {
  const taint = (key: string, value: string | undefined, effect: string) =>
    node('n1', { taints: [{ key, ...(value !== undefined ? { value } : {}), effect }] });
  const tolerated = (toleration: any, n: any) => checkPodOnNode(template({ tolerations: [toleration] }), n).desired;

  test('§6.1 an empty toleration effect matches every effect', () => {
    expect(tolerated({ key: 'k', operator: 'Exists' }, taint('k', 'v', 'NoExecute'))).toBe(true);
    expect(tolerated({ key: 'k', operator: 'Exists' }, taint('k', 'v', 'NoSchedule'))).toBe(true);
  });

  test('§6.1 a different effect does not match (PreferNoSchedule is a different effect)', () => {
    expect(tolerated({ key: 'k', operator: 'Exists', effect: 'PreferNoSchedule' }, taint('k', 'v', 'NoSchedule'))).toBe(false);
    expect(tolerated({ key: 'k', operator: 'Exists', effect: 'NoSchedule' }, taint('k', 'v', 'NoExecute'))).toBe(false);
  });

  test('§6.2 an empty key with Exists matches every key', () => {
    expect(tolerated({ operator: 'Exists' }, taint('anything', 'v', 'NoExecute'))).toBe(true);
    expect(tolerated({ operator: 'Exists', effect: 'NoSchedule' }, taint('anything', 'v', 'NoSchedule'))).toBe(true);
  });

  test('§6.3 Exists matches any value', () => {
    expect(tolerated({ key: 'k', operator: 'Exists' }, taint('k', 'whatever', 'NoSchedule'))).toBe(true);
  });

  test('§6.3 Equal (or no operator) needs the exact value; a key-only toleration matches only a valueless taint', () => {
    expect(tolerated({ key: 'k', operator: 'Equal', value: 'v' }, taint('k', 'v', 'NoSchedule'))).toBe(true);
    expect(tolerated({ key: 'k', value: 'v' }, taint('k', 'v', 'NoSchedule'))).toBe(true);
    expect(tolerated({ key: 'k', operator: 'Equal', value: 'v' }, taint('k', 'V', 'NoSchedule'))).toBe(false);
    expect(tolerated({ key: 'k' }, taint('k', undefined, 'NoSchedule'))).toBe(true);
    expect(tolerated({ key: 'k' }, taint('k', 'present', 'NoSchedule'))).toBe(false);
  });

  test('§6.3 any other operator matches nothing (and is warned about)', () => {
    expect(tolerated({ key: 'k', operator: 'In', value: 'v' }, taint('k', 'v', 'NoSchedule'))).toBe(false);
    expect(compileWorkload(daemonSet('a', { tolerations: [{ key: 'k', operator: 'In' }] })).warnings.join('\n')).toMatch(
      /operator "In" of k tolerates nothing/,
    );
  });

  test('§6.4 tolerationSeconds is ignored for placement; the churn is a warning, not an exclusion', () => {
    const t = { key: 'dedicated', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 };
    expect(tolerated(t, taint('dedicated', 'x', 'NoExecute'))).toBe(true);
    expect(compileWorkload(daemonSet('a', { tolerations: [t] })).warnings.join('\n')).toMatch(
      /dedicated:NoExecute has tolerationSeconds 60.*churn/,
    );
  });

  test('§6 effects: PreferNoSchedule never excludes', () => {
    expect(checkPodOnNode(template(), taint('spot', 'true', 'PreferNoSchedule'))).toMatchObject({ desired: true, runs: true });
  });

  test('§6 a taint without an effect (rejected by the API server) is not among the excluding ones', () => {
    expect(checkPodOnNode(template(), taint('odd', 'x', '')).desired).toBe(true);
  });

  test('§6 FindMatchingUntoleratedTaint: the first untolerated taint in spec.taints order is reported', () => {
    const n = node('n1', {
      taints: [
        { key: 'soft', effect: 'PreferNoSchedule' },
        { key: 'tolerated', effect: 'NoSchedule' },
        { key: 'second', value: '2', effect: 'NoExecute' },
        { key: 'third', effect: 'NoSchedule' },
      ],
    });
    const verdict = checkPodOnNode(template({ tolerations: [{ key: 'tolerated', operator: 'Exists' }] }), n);
    expect(verdict).toMatchObject({ reason: CoverageReason.TAINT, detail: 'second=2:NoExecute', untoleratedTaint: 'second=2:NoExecute' });
  });

  test('§6 / §8 a 1.35-style Lt/Gt toleration operator matches nothing', () => {
    expect(tolerated({ key: 'tier', operator: 'Gt', value: '1' }, taint('tier', '5', 'NoSchedule'))).toBe(false);
  });
});
