import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InputSpec, LoadContext, Suite, TestCase } from '@agentest/kernel';
import jsonlPlugin, { type JsonlPluginOptions } from '../src/index.js';

export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

type LoadTap = (input: InputSpec, ctx: LoadContext) => Promise<Suite | undefined>;

/** Runs the plugin's `load` tap alone, as the kernel would. */
export async function load(input: string, cwd = FIXTURES, options?: JsonlPluginOptions): Promise<Suite | undefined> {
  let tap: LoadTap | undefined;
  const hooks = {
    load: { tapPromise: (_name: string, fn: LoadTap) => void (tap = fn) },
    teardown: { tapPromise: () => {} },
  };
  jsonlPlugin(options).apply({ hooks: hooks as never, reportError: () => {} });
  return tap!({ input, cwd }, { plan: {} as never });
}

export async function collect(suite: Suite): Promise<TestCase[]> {
  const cases: TestCase[] = [];
  for await (const testCase of suite.cases()) cases.push(testCase);
  return cases;
}

/** A fresh directory holding `files` (name → content), for inputs written by the test. */
export function scratch(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-jsonl-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** Loads `content` as `cases.jsonl` from a scratch directory and reads every case. */
export async function loadText(content: string | Buffer, options?: JsonlPluginOptions): Promise<TestCase[]> {
  const dir = scratch({ 'cases.jsonl': content });
  return collect((await load('cases.jsonl', dir, options))!);
}
