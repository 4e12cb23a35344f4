import type { Command } from 'commander';

/** `--coverage` / `--no-coverage`: over the config's `coverage.enabled` for this run. */
export function addCoverageOptions(command: Command): void {
  command
    .option(
      '--coverage',
      "measure how much of the app's scripts and hooks the run executes: lcov in coverage/, a table after the run, a section in the reports; coverage.lines and the other minimums in the config join the verdict (default: the config's coverage.enabled, else off; see docs/coverage.md)",
    )
    .option('--no-coverage', "don't measure coverage, even when the config's coverage.enabled is true");
}
