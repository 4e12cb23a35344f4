import { loadRe2, re2Loaded } from '@agentest/common';
import type { Suite, TestCase } from '@agentest/kernel';

/**
 * The suite, loading RE2 before the first case that needs it is checked or run: one with a `regex`
 * assertion, or a `regex:` pattern (a `tool_result`'s), in `assert` or a checkpoint. Patterns are
 * compiled synchronously (the kernel validates assertions before the run), so the engine must be
 * there by then; a suite without patterns, most of them, never loads it.
 */
export function preloadRe2(suite: Suite): Suite {
  return { ...suite, cases: () => loadingRe2(suite.cases()) };
}

async function* loadingRe2(cases: AsyncIterable<TestCase> | Iterable<TestCase>): AsyncGenerator<TestCase> {
  for await (const testCase of cases) {
    if (!re2Loaded() && needsRe2([testCase.assert, testCase.checkpoints])) await loadRe2();
    yield testCase;
  }
}

/** Whether an assertion, anywhere in `value`, is a `regex` one or holds a `regex:` pattern. */
function needsRe2(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('regex:');
  if (Array.isArray(value)) return value.some(needsRe2);
  if (value === null || typeof value !== 'object') return false;
  return (value as { type?: unknown }).type === 'regex' || Object.values(value).some(needsRe2);
}
