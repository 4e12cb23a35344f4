/**
 * A loader: turns what `-i` names into a suite of cases. This one reads `.csv` files whose header is
 * `id,input,expected` (no quoting: commas are not allowed inside a field). Each row becomes a case
 * through `createCase`, which checks and normalises it exactly as a JSONL line is (the same errors,
 * naming `<file>:<line>`). Inputs it does not recognise are passed on (`undefined`) to the next loader.
 *
 * In the config:  plugins: [csvLoader()]   then   agentest test -i tests/greetings.csv -n <agent>
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AgentestError, createCase, defineLoader, type TestCase } from '@agentest/test';

export default function csvLoader() {
  return defineLoader({
    name: 'example:csv',
    async load(input) {
      if (typeof input.input !== 'string' || !input.input.endsWith('.csv')) return undefined; // not ours
      const file = resolve(input.cwd, input.input);
      const text = await readFile(file, 'utf8').catch(() => {
        throw new AgentestError('INPUT_NOT_FOUND', `${input.input}: file not found (looked at ${file})`);
      });
      const cases = parse(text, file);
      // `needsAgent`: the kernel resolves the suite's agent; `agentHint` is where to look without `-n`.
      return { name: input.input, needsAgent: true, agentHint: { path: file }, cases: () => cases };
    },
  });
}

function parse(text: string, file: string): TestCase[] {
  const [header, ...rows] = text.split(/\r?\n/);
  if (header?.trim() !== 'id,input,expected')
    throw new AgentestError('INPUT_INVALID', `${file}:1: the header must be "id,input,expected"`, { where: file });
  return rows.flatMap((row, i) => {
    if (!row.trim()) return [];
    const [id, input, expected] = row.split(',');
    // An `expected` and no `assert` make the default assertion, as in JSONL: the output must equal it.
    return [createCase({ id, input, expected }, { file, line: i + 2 })];
  });
}
