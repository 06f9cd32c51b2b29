import { resolveStrategy, scaledValue } from '../../src/day2/strategy';
import { daemonSet } from './support';

// The rules, from kubernetes/kubernetes pkg/controller/daemon (1.28):
// - util.UnavailableCount / util.SurgeCount: intstr.GetScaledValueFromIntOrPercent(value, desiredNumberScheduled,
//   roundUp=true) for both budgets, i.e. ceil(percent × desired / 100);
// - update.go updatedDesiredNodeCounts: when desired > 0 and both resolve to 0, maxUnavailable becomes 1;
// - apps/v1 defaulting: type RollingUpdate, maxUnavailable 1, maxSurge 0.

describe('scaledValue: GetScaledValueFromIntOrPercent with roundUp', () => {
  test.each([
    // [value, desired, expected] worked by hand: ceil(p × d / 100)
    [3, 100, 3],
    ['10%', 9, 1], // 0.9 → 1
    ['10%', 25, 3], // 2.5 → 3
    ['10%', 20, 2], // 2.0 → 2
    ['10%', 0, 0],
    ['25%', 9, 3], // 2.25 → 3
    ['33%', 3, 1], // 0.99 → 1
    ['34%', 3, 2], // 1.02 → 2
    ['100%', 7, 7],
    ['0%', 50, 0],
  ] as Array<[number | string, number, number]>)('%p over %p desired is %p', (value, desired, expected) => {
    expect(scaledValue(value, desired)).toBe(expected);
  });
});

describe('resolveStrategy', () => {
  test('GIVEN no updateStrategy THEN the API defaults apply: RollingUpdate, maxUnavailable 1, maxSurge 0', () => {
    const s = resolveStrategy(daemonSet(), 10);
    expect([s.type, s.maxUnavailable, s.maxSurge, s.errors]).toEqual(['RollingUpdate', 1, 0, []]);
  });

  test('GIVEN percentages THEN both budgets are rounded up over the desired count', () => {
    const s = resolveStrategy(
      daemonSet({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: '25%' } } }),
      9,
    );
    expect([s.maxUnavailable, s.maxSurge]).toEqual([1, 3]);
    // AND the note says that surging ignores maxUnavailable
    expect(s.notes.join(' ')).toContain('does not use maxUnavailable');
  });

  test('GIVEN both budgets resolving to 0 on a non-empty DaemonSet THEN maxUnavailable becomes 1', () => {
    const s = resolveStrategy(daemonSet({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } } }), 5);
    expect([s.maxUnavailable, s.maxSurge]).toEqual([1, 0]);
    expect(s.notes[0]).toContain('allows 1 unavailable pod');
    // AND over 0 desired nodes nothing is allowed
    expect(resolveStrategy(daemonSet({ strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }), 0).maxUnavailable).toBe(0);
  });

  test('GIVEN OnDelete THEN no budget is used', () => {
    const s = resolveStrategy(daemonSet({ strategy: { type: 'OnDelete' } }), 10);
    expect([s.type, s.maxUnavailable, s.maxSurge]).toEqual(['OnDelete', 0, 0]);
  });

  test('GIVEN values the API server rejects THEN each is an error naming the field and the value', () => {
    const s = resolveStrategy(daemonSet({ strategy: { type: 'Rolling', rollingUpdate: { maxUnavailable: '150%', maxSurge: 'one' } } }), 10);
    expect(s.errors).toEqual([
      'spec.updateStrategy.type "Rolling" is neither RollingUpdate nor OnDelete',
      'spec.updateStrategy.rollingUpdate.maxUnavailable "150%" must not be more than 100%',
      'spec.updateStrategy.rollingUpdate.maxSurge "one" must be a non-negative integer or a percentage such as "10%" (digits followed by %)',
    ]);
  });

  test('GIVEN minReadySeconds THEN it is carried; a value the API server rejects is an error', () => {
    expect(resolveStrategy(daemonSet({ minReadySeconds: 15 }), 1).minReadySeconds).toBe(15);
    const bad = daemonSet();
    bad.spec.minReadySeconds = '10';
    expect(resolveStrategy(bad, 1).errors).toEqual(['spec.minReadySeconds "10" must be a non-negative integer']);
  });
});
