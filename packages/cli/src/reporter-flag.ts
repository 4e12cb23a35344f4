import { isAgentestError, type AgentestError } from '@agentest/kernel';
import { normaliseReporter, type ReporterSpec } from './config/reporter-specs.js';

/** What `--reporter` and `-r` ask for once read: reporter plugins, and the reporter agent if any. */
export interface ReporterFlagChoice {
  /** The `--reporter` reporters; `undefined` when none was given (the config's then apply). */
  specs: ReporterSpec[] | undefined;
  reporterAgent?: string;
  /**
   * When the reporter agent came from `--reporter`: the error its value earned as a reporter, which
   * stands if no agent has that id either (checked once the kernel can resolve agents).
   */
  unknownReporter?: AgentestError;
}

/**
 * Reads `--reporter` values. Each is a reporter (a built-in name, a module path, a package); a value
 * that names none of these is taken as the seed's `--reporter <agent-id>`, the long form of `-r`: the
 * reporter agent that writes the report. One reporter agent at most, so with `-r` given, or for a
 * second such value, the value's own error stands.
 */
export async function readReporterFlags(
  values: readonly string[] | undefined,
  reporterAgent: string | undefined,
  cwd: string,
): Promise<ReporterFlagChoice> {
  if (!values) return { specs: undefined, ...(reporterAgent ? { reporterAgent } : {}) };
  const specs: ReporterSpec[] = [];
  let choice: Omit<ReporterFlagChoice, 'specs'> = reporterAgent ? { reporterAgent } : {};
  for (const [i, value] of values.entries()) {
    try {
      specs.push(await normaliseReporter(value, cwd, `--reporter: reporters[${i}]`));
    } catch (error) {
      if (choice.reporterAgent || !isUnknownName(error)) throw error;
      choice = { reporterAgent: value, unknownReporter: error };
    }
  }
  // `--reporter <agent-id>` alone is `-r <agent-id>`: the config's reporters still apply, as with `-r`.
  return { specs: specs.length || !choice.unknownReporter ? specs : undefined, ...choice };
}

/** A name that is no built-in, path or installed package (not a module that failed to load). */
function isUnknownName(error: unknown): error is AgentestError {
  return isAgentestError(error) && error.code === 'REPORTER_NOT_FOUND' && /unknown reporter "/.test(error.message);
}

/**
 * The error to report when the reporter agents cannot all be resolved: a `--reporter` value that
 * named no agent either keeps its own REPORTER_NOT_FOUND; any other failure is itself.
 */
export function reporterAgentFailure(choice: ReporterFlagChoice, error: unknown): never {
  if (choice.unknownReporter && isAgentestError(error) && error.where === '-r') throw choice.unknownReporter;
  throw error;
}
