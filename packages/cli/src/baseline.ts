import type { AgentestPlugin, SummaryEvent } from '@agentest/kernel';
import type { Comparison, ComparisonInput } from '@agentest/compare';
import type { CliIo } from './run-test.js';

export interface BaselineSetup {
  /** The plugin that compares at the end of the run (none without `--baseline`). */
  plugins: AgentestPlugin[];
  /** Prints the comparison under the run's own summary. */
  print(summary: SummaryEvent): void;
}

/**
 * `--baseline <report>`: the report is read now, so a missing or unreadable one is an error (exit 2)
 * before the first case; the comparison is made when the run ends and printed after its summary.
 * `--baseline last` arrives here already read from the history.
 */
export async function setupBaseline(
  path: string | ComparisonInput | undefined,
  io: CliIo,
  options: { color: boolean; quiet: boolean },
): Promise<BaselineSetup> {
  if (!path) return { plugins: [], print: () => {} };
  const compare = await import('@agentest/compare');
  const { colourWanted } = await import('@agentest/report');
  const colour = options.color && colourWanted(io.stdout as { isTTY?: boolean }, io.env);
  const baseline = typeof path === 'string' ? await compare.readReport(path, io.cwd) : path;
  let comparison: Comparison | undefined;
  return {
    plugins: [compare.baselinePlugin({ baseline, onComparison: (c) => (comparison = c) })],
    print(summary) {
      if (options.quiet) return;
      if (comparison) io.stdout.write(compare.renderConsole(comparison, { colour }));
      else if (summary.comparison)
        io.stdout.write(
          `\nCompared with ${summary.comparison.baseline}: not comparable: ${summary.comparison.reason}\n`,
        );
    },
  };
}
