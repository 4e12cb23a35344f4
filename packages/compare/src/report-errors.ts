import { AgentestError } from '@agentest/kernel';

/** A report that cannot be read, naming the file (and line) and what is wrong with it. */
export function unreadable(file: string, problem: string, line?: number): AgentestError {
  const where = line === undefined ? file : `${file}:${line}`;
  return new AgentestError('REPORT_UNREADABLE', `${file}: ${problem}`, { where });
}

/** Two reports that cannot be compared, with the reason. */
export function notComparable(reason: string): AgentestError {
  return new AgentestError('REPORTS_NOT_COMPARABLE', reason);
}
