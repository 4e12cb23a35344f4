import { relative } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { checkCases } from '../cases-json.js';
import type { RegisteredTest } from '../types.js';
import type { KitTestCase } from './types.js';

/**
 * cases.json entries → cases, checked first: a missing `case_id` or `query`, a wrong type or a
 * duplicate id throws naming the entry (agentest-kit crashed later, after calling the adapter).
 * Skip wins over todo; every field, unknown ones included, stays in `data` for the adapter.
 */
export function fromJsonCases(cases: unknown): KitTestCase[] {
  return checkCases(cases).map((c) => ({
    id: c.case_id,
    name: c.case_id,
    status: c.skip ? 'skip' : c.todo ? 'todo' : 'active',
    query: typeof c.query === 'string' ? c.query : null,
    expected_keywords: c.expected_keywords ?? [],
    ...kitFields(c),
    fn: null,
    data: withoutControl(c),
  }));
}

/**
 * Registrations → cases. Ids come from the registering file and the test's name
 * (`tests/a.test.js#name`, relative to the working directory), so they do not shift when the list is
 * filtered; agentest-kit numbered them T001, T002… by position. `difficulty`, `notes`,
 * `expected_behavior`, the `.only` mark and the registering file are kept.
 */
export function fromRegistered(registered: readonly RegisteredTest[], cwd = process.cwd()): KitTestCase[] {
  const seen = new Set<string>();
  return registered.map((r) => {
    const id = r.id ?? (r.file ? `${relative(cwd, r.file)}#${r.name}` : r.name);
    if (seen.has(id))
      throw new AgentestError(
        'DUPLICATE_CASE_ID',
        `two registered tests have the id "${id}"; give each test of a file a unique name`,
        { where: id },
      );
    seen.add(id);
    return {
      id,
      name: r.name,
      status: r.status,
      query: r.query,
      expected_keywords: r.expected_keywords ?? [],
      ...kitFields(r),
      fn: r.fn ?? null,
      ...(r.data ? { data: r.data } : {}),
      ...(r.timeoutMs ? { timeoutMs: r.timeoutMs } : {}),
      ...(r.tags ? { tags: r.tags } : {}),
      ...(r.only ? { only: true } : {}),
      ...(r.file ? { file: r.file } : {}),
    };
  });
}

function kitFields(source: {
  intent?: unknown;
  expected_behavior?: unknown;
  difficulty?: unknown;
  notes?: unknown;
}): Partial<KitTestCase> {
  const out: Partial<KitTestCase> = {};
  for (const key of ['intent', 'expected_behavior', 'difficulty', 'notes'] as const)
    if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}

function withoutControl(c: Record<string, unknown>): Record<string, unknown> {
  const { case_id: _id, skip: _skip, todo: _todo, ...rest } = c;
  return rest;
}
