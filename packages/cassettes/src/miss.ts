import { AgentestError, type RunScope } from '@agentest/kernel';
import { describePosition, positionDifference, type CallPosition, type CassetteEntry } from './entry.js';
import { jsonDifference } from './json-difference.js';

/** How far a stored call is from the wanted one: who made it weighs most, then the run, turn and call number. */
function distance(wanted: CallPosition, entry: CassetteEntry): number {
  return (
    (entry.kind === wanted.kind ? 0 : 1000) +
    (entry.role === wanted.role ? 0 : 100) +
    Math.abs(entry.run - wanted.run) * 10 +
    Math.abs(entry.turn - wanted.turn) * 5 +
    Math.abs(entry.call - wanted.call)
  );
}

/**
 * The error a replayed call gets when nothing was recorded for it: it names the case and the call,
 * and shows the closest recorded call with the difference of their keys (position and request).
 */
export function missError(miss: {
  scope: RunScope;
  position: CallPosition;
  request: unknown;
  path: string;
  why: string;
  stored: readonly CassetteEntry[];
}): AgentestError {
  const { scope, position, path, why, stored } = miss;
  const head = `case "${scope.caseId}": no recording for its ${describePosition(position)} in ${path} (${why})`;
  const advice = 'if the change is intended, record again with --record (or --cassettes auto) and commit the cassette';
  if (!stored.length)
    return new AgentestError('CASSETTE_MISS', `${head}: the case has no cassette; ${advice}`, { where: path });
  const closest = [...stored].sort((a, b) => distance(position, a) - distance(position, b))[0]!;
  const lines = [
    ...positionDifference(position, closest),
    ...jsonDifference(closest.request, miss.request).map((line) => `request ${line}`),
  ];
  const shown = lines.length ? lines.map((line) => `\n  ${line}`).join('') : '\n  (the same request, already replayed)';
  return new AgentestError(
    'CASSETTE_MISS',
    `${head}. Closest recorded call: ${describePosition(closest)} (stored → now):${shown}\n${advice}`,
    { where: path },
  );
}
