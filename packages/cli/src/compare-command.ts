import { appendFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { AgentestError } from '@agentest/kernel/errors';
import type { CliIo } from './run-test.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The `compare` command's flags as commander hands them over. */
export interface RawCompareFlags {
  output?: string[];
  margin?: string;
  alpha?: string;
  detect?: string;
  seed?: string;
  allowSuiteChange?: boolean;
  color?: boolean;
}

const FORMATS = ['.json', '.md', '.html'] as const;
type Format = (typeof FORMATS)[number];

const EXAMPLES = `
Examples:
  $ agentest compare runs/main.jsonl runs/pr.jsonl                  # console table; exit 1 on a significant regression
  $ agentest compare base.json head.json -o comparison.md           # Markdown for a pull-request comment
  $ agentest compare base.jsonl head.jsonl --margin 0.02 --detect 0.05 -o diff.html -o diff.json

Exit codes: 0 no significant regression · 1 significant regression · 2 the reports cannot be read or compared`;

/** `agentest compare <base> <head>`: declared here; the statistics load only when it runs. */
export function addCompareCommand(program: Command, io: CliIo, onRun: (code: number) => void): void {
  program
    .command('compare')
    .description(
      'Compare two runs of a suite, paired by case id: what regressed or was fixed, and whether the change is beyond chance.',
    )
    .argument(
      '<base>',
      'the earlier run: a .jsonl event stream or a .json report written by agentest test (e.g. runs/main.jsonl)',
    )
    .argument('<head>', 'the later run, of the same suite (e.g. runs/pr.jsonl)')
    .option(
      '-o, --output <file>',
      'also write the comparison, format by extension: .json .md .html; repeatable (default: console only; e.g. -o comparison.md)',
      collect,
    )
    .option(
      '--margin <drop>',
      'pass-rate drop tolerated with several runs per case, as a fraction or percent (default: 0; e.g. --margin 0.02 or --margin 2%)',
    )
    .option(
      '--alpha <level>',
      'significance level of every test; intervals are at 1 − alpha (default: 0.05; e.g. --alpha 0.01)',
    )
    .option(
      '--detect <drop>',
      'print how many cases or runs it takes to detect this pass-rate drop when the data cannot decide (default: off; e.g. --detect 0.05)',
    )
    .option('--seed <n>', 'seed of the bootstrap resampling, for reproducible intervals (default: 1; e.g. --seed 42)')
    .option(
      '--allow-suite-change',
      'compare reports whose suites are named differently, e.g. after moving the suite file (default: off)',
    )
    .option('--no-color', 'plain output without colours (also: NO_COLOR=1)')
    .addHelpText('after', EXAMPLES)
    .action(async (base: string, head: string, flags: RawCompareFlags) =>
      onRun(await runCompare(base, head, flags, io)),
    );
}

/** Reads both reports, compares them, prints the table and writes the `-o` files. Returns the exit code. */
export async function runCompare(basePath: string, headPath: string, raw: RawCompareFlags, io: CliIo): Promise<number> {
  const options = parseCompareFlags(raw);
  const outputs = (raw.output ?? []).map((file) => ({ file: resolve(io.cwd, file), format: outputFormat(file) }));
  const compare = await import('@agentest/compare');
  const [base, head] = await Promise.all([compare.readReport(basePath, io.cwd), compare.readReport(headPath, io.cwd)]);
  const comparison = compare.compareReports(base, head, options);
  const { colourWanted } = await import('@agentest/report');
  io.stdout.write(
    compare.renderConsole(comparison, {
      colour: raw.color !== false && colourWanted(io.stdout as { isTTY?: boolean }, io.env),
    }),
  );
  const { writeFileAtomic } = await import('@agentest/report');
  const render: Record<Format, () => string> = {
    '.json': () => compare.renderJson(comparison),
    '.md': () => compare.renderMarkdown(comparison),
    '.html': () => compare.renderHtml(comparison),
  };
  for (const { file, format } of outputs) await writeFileAtomic(file, render[format]());
  if (io.env.GITHUB_ACTIONS === 'true' && io.env.GITHUB_STEP_SUMMARY)
    await appendFile(io.env.GITHUB_STEP_SUMMARY, `${compare.renderMarkdown(comparison)}\n`);
  return comparison.exitCode;
}

/** Declared here rather than taken from flags.ts, which loads the assertion plugin: `--help` stays fast. */
function invalid(flag: string, problem: string): AgentestError {
  return new AgentestError('FLAG_INVALID', `${flag} ${problem}`, { where: flag });
}

function parseCompareFlags(raw: RawCompareFlags) {
  return {
    ...(raw.margin !== undefined ? { margin: fraction('--margin', raw.margin, { allowZero: true }) } : {}),
    ...(raw.alpha !== undefined ? { alpha: fraction('--alpha', raw.alpha, { max: 0.5 }) } : {}),
    ...(raw.detect !== undefined ? { detect: fraction('--detect', raw.detect) } : {}),
    ...(raw.seed !== undefined ? { seed: seed(raw.seed) } : {}),
    ...(raw.allowSuiteChange ? { allowSuiteChange: true } : {}),
  };
}

/** `0.05` or `5%`: a fraction below 1 (or up to `max`). */
function fraction(flag: string, value: string, limits: { allowZero?: boolean; max?: number } = {}): number {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)\s*$/.exec(value);
  const number = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  const max = limits.max ?? 1;
  const ok =
    Number.isFinite(number) && number < max + (limits.max ? 1e-12 : 0) && (limits.allowZero ? number >= 0 : number > 0);
  if (!ok)
    throw invalid(
      flag,
      `must be a fraction ${limits.allowZero ? 'from 0' : 'above 0'} and below ${limits.max ? `or equal to ${max}` : '1'}, or a percent, got ${JSON.stringify(value)} (e.g. ${flag} 0.05 or ${flag} 5%)`,
    );
  return number;
}

function seed(value: string): number {
  if (!/^\s*\d+\s*$/.test(value) || Number(value) > 0xffffffff)
    throw invalid(
      '--seed',
      `must be a whole number from 0 to 4294967295, got ${JSON.stringify(value)} (e.g. --seed 42)`,
    );
  return Number(value);
}

/** The other spellings `agentest test -o` takes for the same formats. */
const ALIASES: Record<string, Format> = { '.htm': '.html', '.markdown': '.md' };

function outputFormat(file: string): Format {
  const extension = extname(file).toLowerCase();
  if ((FORMATS as readonly string[]).includes(extension)) return extension as Format;
  if (Object.hasOwn(ALIASES, extension)) return ALIASES[extension]!;
  throw invalid(
    '-o, --output',
    `has an extension agentest compare cannot write (${extension || 'none'}): use .json, .md (.markdown) or .html (.htm) (e.g. -o comparison.md)`,
  );
}
