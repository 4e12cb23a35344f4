import { ERROR_CATALOGUE } from './errors.js';

/** Renders the error catalogue as the Markdown of `docs/errors.md`, so the docs cannot drift from the code. */
export function renderErrorCatalogue(): string {
  const rows = Object.entries(ERROR_CATALOGUE)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, e]) => `| \`${code}\` | ${e.exit} | ${e.trigger} | ${e.fix} |`);
  return [
    '# Error catalogue',
    '',
    'Every error agentest raises on purpose has a stable code. The CLI prints `error[CODE]: message` and the fix below;',
    'the exit code is 2 for configuration and input errors, 3 for runtime errors. What happens to a single case (an agent',
    'that throws, a timeout, a failed assertion) is never an error here: it is recorded on that case and the run goes on.',
    '',
    '_Generated from `packages/kernel/src/errors.ts` by `npm run docs:errors`; a test fails when this file is stale._',
    '',
    '| code | exit | when | what to do |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
