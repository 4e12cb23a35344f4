import { resolve } from 'node:path';
import { AgentestError, type Kernel, type RunPlan } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import type { CliIo } from './run-test.js';

/**
 * `--dry-run`: the suite is loaded (generated, for `-i agents:…` and `-i scripts:…`) and checked as
 * for a run, `--run` applied, and its cases are written as JSONL, one case per line, in the form a
 * suite file takes: to the `-o` file when one is given (it must end in `.jsonl`), else to stdout. No
 * agent is called and nothing else is written (Yao lists cases before its filters and always writes
 * a file, W18). The cases can be reviewed, committed and run with `-i <file>`.
 */
export async function dryRun(kernel: Kernel, plan: RunPlan, outputs: readonly string[], io: CliIo): Promise<number> {
  const { toJsonlCase } = await import('@agentest/plugin-jsonl');
  if (outputs.length > 1 || (outputs[0] && !outputs[0].toLowerCase().endsWith('.jsonl')))
    throw new AgentestError(
      'FLAG_INVALID',
      '--dry-run writes the cases as JSONL: give at most one -o, ending in .jsonl',
      {
        where: '-o',
      },
    );
  const cases = await kernel.list(plan);
  const text = cases.map((testCase) => `${safeStringify(toJsonlCase(testCase))}\n`).join('');
  if (!outputs[0]) {
    io.stdout.write(text);
    return 0;
  }
  const path = resolve(io.cwd, outputs[0]);
  // As every report is written: missing folders are made (`-o tests/generated.jsonl` in a new project).
  const { writeFileAtomic } = await import('@agentest/report');
  await writeFileAtomic(path, text);
  io.stderr.write(`ℹ Dry run: ${cases.length} test case${cases.length === 1 ? '' : 's'} written to ${path}\n`);
  return 0;
}
