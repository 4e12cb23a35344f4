import { AgentestError, isAgentestError, type Kernel, type RunPlan } from '@agentest/kernel';
import { didYouMean } from '@agentest/kernel/errors';
import { BUILTIN_REPORT_IDS, reporterForPath } from './reporter-registry.js';

/**
 * Resolves every reporter agent before the first case, so `-r report.htm` (meant as a format, or a
 * typo) costs nothing instead of a whole paid run followed by exit 3. A reporter agent that does not
 * exist is a flag or config error (exit 2) that says what `-r` takes and, for a file name, that `-o`
 * is the flag that writes it. Resolving builds the agent once; the reporter reuses it after the run.
 */
export async function checkReporterAgents(
  kernel: Kernel,
  agents: readonly { id: string; where: string }[],
  plan: RunPlan,
): Promise<void> {
  for (const { id, where } of agents) {
    try {
      await kernel.resolveAgent({ id }, plan);
    } catch (error) {
      if (!isAgentestError(error) || error.code !== 'AGENT_NOT_FOUND') throw error;
      throw notFound(id, where, error);
    }
  }
}

function notFound(id: string, where: string, cause: AgentestError): AgentestError {
  if (where !== '-r')
    return new AgentestError('CONFIG_INVALID', `${where}: the reporter agent cannot be found: ${cause.message}`, {
      where,
      cause,
    });
  const builtins = Object.keys(BUILTIN_REPORT_IDS);
  const asFile = reporterForPath(id) ? `; to write the file ${id}, use -o ${id}` : '';
  return new AgentestError(
    'FLAG_INVALID',
    `-r "${id}" names no reporter agent${didYouMean(id, builtins)}: -r takes a reporter agent id or a built-in format (${builtins.join(', ')})${asFile}`,
    { where: '-r', cause },
  );
}
