#!/usr/bin/env node
// `npm run lint`: Prettier's check, then ESLint (rules in eslint.config.js). Exits non-zero on any finding
// and says how to fix it. Both cache by file contents (node_modules/.cache), so a second run only checks what
// changed.
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

function run(label, command, args) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.error) throw result.error;
  console.log(`lint: ${label} ${result.status === 0 ? 'clean' : 'found problems'} (${seconds}s)`);
  return result.status === 0;
}

const formatted = run('prettier', bin('prettier'), [
  '--check',
  '--log-level=warn',
  '--cache',
  '--cache-strategy=content',
  '--cache-location=node_modules/.cache/prettier/cache.json',
  '.',
]);
const linted = run('eslint', bin('eslint'), [
  '--cache',
  '--cache-strategy=content',
  '--cache-location=node_modules/.cache/eslint/',
  '--max-warnings=0',
  '.',
]);
if (!formatted) console.error('lint: the files listed above are not formatted: run `npx prettier --write <file>`.');
if (!linted) console.error('lint: fix the ESLint findings above (the rules and why are in eslint.config.js).');
process.exit(formatted && linted ? 0 : 1);
