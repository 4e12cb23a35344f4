import type { TestCase } from '@agentest/kernel';
import type { JsonCase, RegisteredTest, TestData } from './types.js';

/** The kit fields a case carries to its adapter (`data`), whatever form it was written in. */
export type KitData = Omit<JsonCase, 'case_id' | 'skip' | 'todo'> & { case_id: string };

/**
 * A data-driven case as the kernel runs it: an `agent` case whose `data` holds every kit field, so
 * the adapter receives `intent`, `difficulty`, `notes` and any custom field (agentest-kit dropped them).
 */
export function agentCase(
  id: string,
  fields: TestData | JsonCase,
  source: TestCase['source'],
  extra: { name?: string; skip?: boolean | string; todo?: boolean; timeoutMs?: number; tags?: string[] } = {},
): TestCase {
  const { skip: _skip, todo: _todo, case_id: _id, ...rest } = fields as JsonCase;
  const tags = extra.tags ?? (Array.isArray(rest.tags) ? (rest.tags as string[]) : undefined);
  const query = typeof rest.query === 'string' ? rest.query : '';
  const data: KitData = { ...rest, case_id: id, query, expected_keywords: rest.expected_keywords ?? [] };
  return {
    id,
    kind: 'agent',
    ...(extra.name && extra.name !== id ? { name: extra.name } : {}),
    input: query,
    messages: [{ role: 'user', content: query }],
    data,
    ...(extra.skip ? { skip: extra.skip } : {}),
    ...(extra.todo && !extra.skip ? { todo: true } : {}),
    ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
    ...(tags?.length ? { tags } : {}),
    metadata: kitMetadata(data),
    source,
  };
}

/** What a `spec` case's executor needs to find its test again. */
export interface SpecData {
  /** The test file (absolute), for tests run in the sandbox. */
  file?: string;
  /** The test's name (unique within its file). */
  name: string;
  /** The test function itself, for tests run in-process (`runSuite`). */
  fn?: unknown;
}

/** A script-driven test as the kernel runs it. */
export function specCase(
  id: string,
  test: Pick<RegisteredTest, 'name' | 'status' | 'timeoutMs' | 'tags'>,
  data: SpecData,
  source: TestCase['source'],
  skip?: string,
): TestCase {
  return {
    id,
    kind: 'spec',
    ...(test.name !== id ? { name: test.name } : {}),
    input: test.name,
    messages: [],
    data,
    ...(skip ? { skip } : test.status === 'skip' ? { skip: true } : {}),
    ...(test.status === 'todo' ? { todo: true } : {}),
    ...(test.timeoutMs ? { timeoutMs: test.timeoutMs } : {}),
    ...(test.tags?.length ? { tags: test.tags } : {}),
    source,
  };
}

/**
 * A registered test as a kernel case: a function test (or a todo) becomes a `spec` case run from
 * `spec`; a data test becomes an `agent` case like a line of cases.json.
 */
export function registeredCase(
  id: string,
  test: Omit<RegisteredTest, 'fn'>,
  spec: SpecData | undefined,
  source: TestCase['source'],
  skip?: string,
): TestCase {
  if (spec || test.status === 'todo') return specCase(id, test, spec ?? { name: test.name }, source, skip);
  const fields: TestData = { ...test.data, query: test.query ?? '', expected_keywords: test.expected_keywords };
  return agentCase(id, fields, source, {
    name: test.name,
    skip: skip ?? (test.status === 'skip' || undefined),
    timeoutMs: test.timeoutMs,
    ...(test.tags ? { tags: test.tags } : {}),
  });
}

function kitMetadata(data: KitData): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of ['intent', 'difficulty', 'notes', 'expected_behavior'] as const)
    if (data[key] !== undefined) out[key] = data[key];
  // Reports show which expected keywords a reply missed, which the evaluation alone does not say.
  if (Array.isArray(data.expected_keywords) && data.expected_keywords.length)
    out.expected_keywords = data.expected_keywords;
  return Object.keys(out).length ? out : undefined;
}
