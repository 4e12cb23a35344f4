import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import * as z from 'zod';
import { AgentestError } from '@agentest/kernel';
import type { JsonCase } from './types.js';

/** A validated case with the line it starts on. */
export interface LocatedCase {
  case: JsonCase;
  line: number;
}

const text = z.string();
const caseShape = z.looseObject({
  case_id: z.string().trim().min(1, 'must be a non-empty string'),
  query: z.string().optional(),
  expected_keywords: z.array(z.string(), 'must be an array of strings').optional(),
  intent: text.optional(),
  expected_behavior: text.optional(),
  difficulty: text.optional(),
  notes: text.optional(),
  skip: z.union([z.boolean(), z.string()], 'must be true, false or a reason').optional(),
  todo: z.boolean('must be true or false').optional(),
  tags: z.array(z.string().trim().min(1, 'must be a non-empty string'), 'must be an array of strings').optional(),
});

/**
 * Reads agentest-kit's `cases.json` (an array of cases) and checks every case before anything runs:
 * a missing `case_id` or `query`, a field of the wrong type and a duplicate id are errors naming
 * `file:line` and the case. `query` may be left out only by a case marked `todo`.
 */
export async function readCasesJson(file: string, cwd: string): Promise<LocatedCase[]> {
  const shown = relative(cwd, file) || file;
  const source = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new AgentestError('INPUT_NOT_FOUND', `cannot read ${shown}: ${error.code ?? error.message}`, {
      where: shown,
    });
  });
  return parseCasesJson(source, shown);
}

export function parseCasesJson(source: string, shown: string): LocatedCase[] {
  const lineOf = lineIndex(source);
  const errors: ParseError[] = [];
  const tree = parseTree(source, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length || !tree) {
    const first = errors[0];
    const at = first ? `${shown}:${lineOf(first.offset)}` : shown;
    throw new AgentestError(
      'INPUT_INVALID',
      `${at}: invalid JSON (${first ? printParseErrorCode(first.error) : 'empty file'}); cases.json must be an array of cases`,
      { where: at },
    );
  }
  if (tree.type !== 'array') {
    throw new AgentestError(
      'INPUT_INVALID',
      `${shown}: expected an array of cases ([{ "case_id": "C001", "query": "…" }]), got ${tree.type}`,
      { where: shown },
    );
  }
  const seen = new Map<string, number>();
  return (tree.children ?? []).map((node, index) => {
    const line = lineOf(node.offset);
    const located = validate(node, index, `${shown}:${line}`);
    const earlier = seen.get(located.case_id);
    if (earlier !== undefined) {
      throw new AgentestError(
        'DUPLICATE_CASE_ID',
        `${shown}:${line}: case_id "${located.case_id}" is already used at line ${earlier}; give every case a unique case_id`,
        { where: `${shown}:${line}` },
      );
    }
    seen.set(located.case_id, line);
    return { case: located, line };
  });
}

/**
 * Checks cases given as values (agentest-kit's `fromJsonCases(cases)`): the same rules as cases.json,
 * with errors naming `<where>[index]` instead of a line.
 */
export function checkCases(cases: unknown, where = 'cases'): JsonCase[] {
  if (!Array.isArray(cases))
    throw new AgentestError(
      'INPUT_INVALID',
      `${where}: expected an array of cases, got ${cases === null ? 'null' : typeof cases}`,
      { where },
    );
  const seen = new Set<string>();
  return cases.map((value, index) => {
    const checked = validateCase(value, index, `${where}[${index}]`);
    if (seen.has(checked.case_id))
      throw new AgentestError(
        'DUPLICATE_CASE_ID',
        `${where}[${index}]: case_id "${checked.case_id}" is used twice; give every case a unique case_id`,
        { where: `${where}[${index}]` },
      );
    seen.add(checked.case_id);
    return checked;
  });
}

function validate(node: Node, index: number, at: string): JsonCase {
  return validateCase(nodeValue(node), index, at);
}

function validateCase(value: unknown, index: number, at: string): JsonCase {
  const label = `case #${index + 1}${typeof (value as { case_id?: unknown })?.case_id === 'string' ? ` ("${(value as { case_id: string }).case_id}")` : ''}`;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new AgentestError('INPUT_INVALID', `${at}: ${label} must be an object with case_id and query`, { where: at });
  }
  const parsed = caseShape.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'case';
    const missing = issue.path.length === 1 && !Object.hasOwn(value as object, issue.path[0] as string);
    const problem = missing ? 'is required' : issue.message;
    throw new AgentestError('INPUT_INVALID', `${at}: ${label}: ${field} ${problem}`, { where: at });
  }
  const data = parsed.data as JsonCase;
  if (typeof data.query !== 'string' && !data.todo) {
    throw new AgentestError(
      'INPUT_INVALID',
      `${at}: ${label}: query is required (only a "todo" case may leave it out)`,
      { where: at },
    );
  }
  return data;
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).map((p) => [p.children![0]!.value as string, nodeValue(p.children![1]!)]),
      );
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function lineIndex(source: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
