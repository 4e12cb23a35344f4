import { AgentestError, isAgentestError, type EnvironmentVariables } from '@agentest/kernel';
import { ERROR_CATALOGUE, errorMessage } from '@agentest/kernel/errors';
import { redactText } from '@agentest/kernel/secrets';
import { terminalSafe } from '@agentest/report';

/**
 * How an error reaches the user: `error[CODE]: message` and the catalogue's fix, never a stack
 * trace, except with `DEBUG=agentest:*` (or any DEBUG naming agentest), which adds the stack and causes.
 * Registered secrets (connector keys) are redacted.
 */
export function formatError(error: unknown, env: EnvironmentVariables = process.env): string {
  const known = isAgentestError(error) ? error : new AgentestError('INTERNAL', errorMessage(error), { cause: error });
  const lines = [`error[${known.code}]: ${known.message}`, `  hint: ${known.hint}`];
  if (debugging(env)) {
    let cause: unknown = error;
    while (cause instanceof Error) {
      lines.push('', cause.stack ?? cause.message);
      cause = cause.cause;
    }
  }
  // A server's error text can echo the key it was sent, and may hold what a terminal would obey: shown, never obeyed.
  return terminalSafe(redactText(lines.join('\n')));
}

/**
 * A flag error with the catalogue's fix points at the help of the command the flag was given to
 * (`agentest merge --help`); `command` is undefined for the program's own flags and an unknown command.
 */
export function withCommandHelp(error: unknown, command: string | undefined): unknown {
  if (!isAgentestError(error) || error.code !== 'FLAG_INVALID' || error.hint !== ERROR_CATALOGUE.FLAG_INVALID.fix)
    return error;
  const help = command ? `agentest ${command} --help` : 'agentest --help';
  return new AgentestError('FLAG_INVALID', error.message, {
    where: error.where,
    cause: error,
    hint: `Use the form shown in \`${help}\`.`,
  });
}

/** 2 for configuration and input errors, 3 for runtime errors (the catalogue decides). */
export function exitCodeOf(error: unknown): number {
  return isAgentestError(error) ? error.exitCode : 3;
}

function debugging(env: EnvironmentVariables): boolean {
  return /(^|,)\s*agentest(:\*|\*|$|,)/.test(env.DEBUG ?? '') || /agentest:/.test(env.DEBUG ?? '');
}
