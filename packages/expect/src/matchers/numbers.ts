import { show } from '../format.js';
import { judging, requireNumber, subjects, verdict, type Matcher } from '../matcher.js';

/**
 * Ordering and closeness. Both sides must be numbers (or bigints): a numeric string fails, with or
 * without `.not`, instead of being compared by accident.
 */
export const numberMatchers = {
  toBeGreaterThan: judging(subjects.number, (received: number | bigint, n: number | bigint) =>
    compare('toBeGreaterThan', received, n, 'greater than', (a, b) => a > b),
  ),
  toBeGreaterThanOrEqual: judging(subjects.number, (received: number | bigint, n: number | bigint) =>
    compare('toBeGreaterThanOrEqual', received, n, 'greater than or equal to', (a, b) => a >= b),
  ),
  toBeLessThan: judging(subjects.number, (received: number | bigint, n: number | bigint) =>
    compare('toBeLessThan', received, n, 'less than', (a, b) => a < b),
  ),
  toBeLessThanOrEqual: judging(subjects.number, (received: number | bigint, n: number | bigint) =>
    compare('toBeLessThanOrEqual', received, n, 'less than or equal to', (a, b) => a <= b),
  ),

  /** Equal within half a unit of the `digits`-th decimal, as in Jest: `toBeCloseTo(0.3)` accepts 0.1 + 0.2. */
  toBeCloseTo: judging(subjects.number, (received: number | bigint, expected: number, digits = 2) => {
    const actual = Number(received);
    const target = Number(requireNumber('toBeCloseTo', expected, 'the expected value'));
    const tolerance = 10 ** -digits / 2;
    const delta = Math.abs(actual - target);
    const pass =
      (actual === Infinity && target === Infinity) ||
      (actual === -Infinity && target === -Infinity) ||
      delta < tolerance;
    return verdict(
      pass,
      received,
      `to be close to ${show(expected)} (within ${tolerance})`,
      expected,
      `, difference ${show(delta)}`,
    );
  }),
} satisfies Record<string, Matcher>;

function compare(
  name: string,
  received: number | bigint,
  n: unknown,
  phrase: string,
  test: (a: number | bigint, b: number | bigint) => boolean,
) {
  const limit = requireNumber(name, n, 'the expected value');
  return verdict(test(received, limit), received, `to be ${phrase} ${show(limit)}`, limit);
}
