/**
 * A module for `node --import <file>` that registers a load hook appending every ES module URL the
 * process loads to the file AGENTEST_LOADED names: what a command loads, asserted without timings.
 */
export const MODULE_LOAD_RECORDER = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.AGENTEST_LOADED, url + '\\\\n');
  return next(url, context);
}\`));
`;
