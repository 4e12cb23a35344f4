import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliIo } from '../run-test.js';
import type { InitResult } from './scaffold.js';
import { EXAMPLE_AGENT } from './templates.js';

const EXAMPLES = `
Examples:
  $ agentest init                        # set up the current folder
  $ agentest init my-agent               # set up (or create) the folder my-agent
  $ agentest init --assistant keyword    # in a Yao app: a suite for this assistant
  $ agentest init --force                # write every file again, over the ones that exist

Writes agentest.config.ts, tests/inputs.jsonl with three cases, an offline example adapter (tests/agent.ts)
and .github/workflows/agentest.yml; adds @agentest/test to package.json's devDependencies (install it with
npm install) and the run outputs to .gitignore. In a Yao app (app.yao) the suite is for one of its
assistants instead of the adapter. A file that exists is never overwritten without --force.`;

interface RawInitFlags {
  force?: boolean;
  assistant?: string;
}

/** `agentest init [dir]`: declared here; the scaffold loads only when it runs. */
export function addInitCommand(program: Command, io: CliIo, onRun: (code: number) => void): void {
  program
    .command('init')
    .description('Set up a project for agentest: a config, a first suite, an example agent and a CI workflow.')
    .argument('[dir]', 'the project folder, created when missing (default: the working directory; e.g. my-agent)')
    .option('--force', 'overwrite files that exist (default: off: existing files are kept and listed)')
    .option(
      '--assistant <id>',
      'in a Yao app, the assistant to write the suite for (default: the first under assistants/; e.g. --assistant keyword)',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (dir: string | undefined, flags: RawInitFlags) => onRun(await runInit(dir, flags, io)));
}

export async function runInit(dir: string | undefined, flags: RawInitFlags, io: CliIo): Promise<number> {
  const { scaffold, fileSystemError } = await import('./scaffold.js');
  const { createRequire } = await import('node:module');
  const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
  const folder = resolve(io.cwd, dir ?? '.');
  const result = await scaffold({
    dir: folder,
    force: flags.force === true,
    ...(flags.assistant ? { assistant: flags.assistant } : {}),
    version,
  }).catch((error: unknown) => {
    throw fileSystemError(error, folder, io.cwd);
  });
  io.stdout.write(describe(result, io.cwd));
  return 0;
}

/** What init did, file by file, and the commands to run next. */
function describe(result: InitResult, cwd: string): string {
  const lines: string[] = [];
  const { yao } = result;
  if (yao) {
    const others = yao.all.length > 1 ? ` (of ${yao.all.join(', ')}; choose another with --assistant <id>)` : '';
    lines.push(`A suite for the Yao assistant "${yao.assistant}"${others}:`);
  } else lines.push('A suite with an offline example agent (tests/agent.ts: replace it with a call to yours):');
  for (const path of result.created) lines.push(`  created      ${path}`);
  for (const path of result.overwritten) lines.push(`  overwritten  ${path}`);
  for (const path of result.skipped) lines.push(`  skipped      ${path} (exists; --force overwrites it)`);
  const { dependency } = result;
  if (dependency.kind === 'added')
    lines.push(`  added        @agentest/test ${dependency.range} to devDependencies in package.json`);
  if (result.gitignore)
    lines.push(`  ${result.gitignore.padEnd(11)}  .gitignore (reports, run history, default outputs)`);
  lines.push('', 'Next:');
  const inside = relative(cwd, result.root);
  const where = inside.startsWith('..') ? result.root : inside;
  if (where) lines.push(`  cd ${/\s/.test(where) ? JSON.stringify(where) : where}`);
  if (dependency.kind === 'added') lines.push('  npm install');
  if (dependency.kind === 'none') lines.push('  npm i -D @agentest/test');
  lines.push(...nextRun(result).map((line) => `  ${line}`));
  return `${lines.join('\n')}\n`;
}

/**
 * The run to try: the config's suites, or, when a config of the user's was kept that does not name the new
 * suite, that suite by name
 * (a Yao assistant is found from the suite's path; the example adapter is registered only by init's config).
 */
function nextRun(result: InitResult): string[] {
  if (result.configRunsSuite) return ['npx agentest test'];
  if (result.yao) return [`npx agentest test -i ${result.suite}`];
  return [
    `# agentest.config.ts was kept: add agents: { '${EXAMPLE_AGENT}': exampleAgent } (from ./tests/agent.ts) to it`,
    `npx agentest test -i ${result.suite} -n ${EXAMPLE_AGENT}`,
  ];
}
