import fc from 'fast-check';
import { jsonPath, memoizeByString } from '../../src/policy/helpers';

describe('jsonPath', () => {
  test('appends identifiers with a dot and quotes every other key, as the identifier grammar says', () => {
    const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom('name', '_x', '$ref', 'a1', '1a', 'app.kubernetes.io/name', "it's", 'back\\slash', 'ü')),
        (key) => {
          // GIVEN any key WHEN appended THEN it is `.key` exactly when the key is an identifier, else a quoted bracket
          const path = jsonPath('metadata', key);
          if (identifier.test(key)) expect(path).toBe(`metadata.${key}`);
          else expect(path).toBe(`metadata['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('writes indexes in brackets and starts an empty path without a dot', () => {
    expect(jsonPath('', 'spec', 'containers', 0, 'image')).toBe('spec.containers[0].image');
  });
});

describe('memoizeByString', () => {
  test('computes each string once, remembers undefined results, and passes other values through', () => {
    // GIVEN a pure function that counts its calls
    const pure = (value: string): string | undefined => (value.length > 1 ? `long ${value}` : undefined);
    const calls: unknown[] = [];
    const memo = memoizeByString((value: string) => {
      calls.push(value);
      return pure(value);
    });
    // WHEN called repeatedly with the same strings, and twice with a number
    const inputs = ['ab', 'a', 'ab', 'a', 'ab'];
    const results = inputs.map((v) => memo(v));
    memo(12 as unknown as string);
    memo(12 as unknown as string);
    // THEN results equal the function's, each string was computed once, and the number each time
    expect(results).toEqual(inputs.map(pure));
    expect(calls).toEqual(['ab', 'a', 12, 12]);
  });

  test('does not remember a call that threw', () => {
    let fail = true;
    const memo = memoizeByString((value: string) => {
      if (fail) throw new Error(`not now: ${value}`);
      return value.toUpperCase();
    });
    expect(() => memo('x')).toThrow('not now: x');
    fail = false;
    expect(memo('x')).toBe('X');
  });

  test("keeps returning the function's results beyond the number of values it remembers", () => {
    const memo = memoizeByString((value: string) => value.length);
    const values = Array.from({ length: 10000 }, (_, i) => 'v'.repeat(i % 50) + i);
    expect(values.map(memo)).toEqual(values.map((v) => v.length));
    expect(values.map(memo)).toEqual(values.map((v) => v.length));
  });
});
