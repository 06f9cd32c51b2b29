import { formatBytes, formatMilliCpu, scaledQuantity } from '../../src/coverage/quantity';

describe('§7 quantities as the scheduler compares them (exact, rounded up)', () => {
  test.each([
    ['1', 1000],
    ['0.25', 250],
    ['250m', 250],
    ['1.1', 1100], // exact: not 1101 from 1.1 * 1000 in floating point
    ['0.0001', 1], // below a milli-unit rounds up
    ['2', 2000],
    [2, 2000],
    [0.5, 500],
    ['1k', 1000000],
    ['1e-3', 1],
    ['.5', 500],
  ])('cpu %p is %d millicores', (value, milli) => {
    expect(scaledQuantity(value, 3)).toBe(milli);
  });

  test.each([
    ['1Gi', 1073741824],
    ['1G', 1000000000],
    ['1.5Gi', 1610612736],
    ['15806904Ki', 16186269696],
    ['1e3', 1000],
    ['1.5', 2],
    ['1m', 1],
    ['0', 0],
    ['128974848', 128974848],
  ])('memory %p is %d bytes', (value, bytes) => {
    expect(scaledQuantity(value, 0)).toBe(bytes);
  });

  test.each(['abc', '-1', '1Gb', '', '1 Gi', null, undefined, {}])('%p is not a valid non-negative quantity', (value) => {
    expect(scaledQuantity(value, 0)).toBeUndefined();
  });

  test('formatting for explanations', () => {
    expect(formatMilliCpu(250)).toBe('250m');
    expect(formatMilliCpu(2000)).toBe('2');
    expect(formatBytes(512 * 2 ** 20)).toBe('512Mi');
    expect(formatBytes(2 ** 30)).toBe('1Gi');
    expect(formatBytes(1000000000)).toBe('1000000000');
    expect(formatBytes(-32 * 2 ** 20)).toBe('-32Mi');
  });
});
