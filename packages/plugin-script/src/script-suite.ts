import { relative } from 'node:path';
import type { InputSpec, Suite, TestCase } from '@agentest/kernel';
import { compileModule } from './compile/compile.js';
import { isTestFunction, LIFECYCLE_FUNCTIONS } from './compile/discover.js';
import { scriptTestRoot } from './resolve/app-root.js';
import { resolveScriptTest } from './resolve/script-test.js';

/** What a script case carries to its executor. */
export interface ScriptCaseData {
  file: string;
  fn: string;
  assistantId: string;
  /** The app root the test was found in: `Process("scripts.…")` and `agents.…` resolve from it. */
  root: string;
  testMain: boolean;
  beforeEach: boolean;
  afterEach: boolean;
}

/** Yao's per-function default in script mode (the seed's `--timeout` default). */
export const SCRIPT_TIMEOUT_MS = 30_000;

/**
 * The suite for `scripts.<assistant>.<module>`: one case per `Test*` function, id = the function name
 * (so `--run` filters by name), in file order. The file is compiled here, so a syntax error stops the
 * run before any test with `SCRIPT_INVALID file:line:col`.
 */
export async function loadScriptSuite(input: InputSpec, root?: string): Promise<Suite> {
  const resolved = resolveScriptTest(input.input, scriptTestRoot(input.cwd, root));
  const compiled = await compileModule(resolved.testFile);
  const names = new Set(compiled.functions.map((f) => f.name));
  const has = (name: (typeof LIFECYCLE_FUNCTIONS)[number]) => names.has(name);
  const display = relative(input.cwd, resolved.testFile) || resolved.testFile;
  const cases: TestCase[] = compiled.functions.filter(isTestFunction).map((test) => ({
    id: test.name,
    kind: 'script',
    input: test.name,
    messages: [],
    source: { file: display, line: test.line },
    data: {
      file: resolved.testFile,
      fn: test.name,
      assistantId: resolved.assistantId,
      root: resolved.root,
      testMain: has('TestMain'),
      beforeEach: has('BeforeEach'),
      afterEach: has('AfterEach'),
    } satisfies ScriptCaseData,
  }));
  return {
    name: resolved.script,
    needsAgent: false,
    cases: () => cases,
    defaultTimeoutMs: SCRIPT_TIMEOUT_MS,
    meta: {
      mode: 'script',
      script: resolved.script,
      script_path: resolved.scriptPath,
      assistant_id: resolved.assistantId,
      tests: cases.length,
      loaded: compiled.loaded.map((file) => relative(resolved.root, file)),
    },
  };
}
