import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AssertionError, expect } from '../src/index.js';

/** One row: a call on an assertion, whether it passes, and (when it fails) what the message says. */
interface Row {
  name: string;
  run: (e: typeof expect) => unknown;
  fails?: RegExp;
}

/** One test per row, grouped under `title`. */
export function table(title: string, rows: Row[]) {
  describe(title, () => {
    for (const row of rows) {
      test(row.name, () => {
        if (!row.fails) return void row.run(expect);
        assert.throws(
          () => row.run(expect),
          (error: unknown) => {
            assert.ok(error instanceof AssertionError, `threw ${String(error)}`);
            assert.match(error.message, row.fails!);
            return true;
          },
        );
      });
    }
  });
}
