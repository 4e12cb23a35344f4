import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildDist } from './_build.js';

/**
 * Runs the calling bench again on the built packages (`dist/`, what the CLI runs) when it was started
 * on the sources (`--conditions=@agentest/source`, as `npm run bench` starts every bench): the
 * sources run through tsx, whose transform wraps every function it creates to keep its name, a cost
 * on every call that the shipped code does not have. Builds first, so `dist/` matches the sources.
 * Answers true when the bench ran in the child (the caller then stops); the child's output and exit
 * code are the caller's.
 */
export function rerunOnDist(benchUrl: string): boolean {
  if (!process.execArgv.some((arg) => arg.startsWith('--conditions=@agentest/source'))) return false;
  console.error('building dist/ (the bench runs the built packages)…');
  buildDist();
  const child = spawnSync(
    process.execPath,
    [...process.execArgv.filter((arg) => !arg.startsWith('--conditions')), fileURLToPath(benchUrl)],
    { stdio: 'inherit' },
  );
  process.exitCode = child.status ?? 1;
  return true;
}
