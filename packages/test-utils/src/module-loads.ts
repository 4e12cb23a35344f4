/**
 * A module for `node --import <file>` that records every module the process loads in the file
 * AGENTEST_LOADED names, one URL a line: what a command loads, asserted without timings. ES modules are
 * recorded by a load hook as they load; CommonJS modules that `require()` loads, which no ES module hook
 * sees, from the CommonJS cache as the process exits (a module may appear twice).
 */
export const MODULE_LOAD_RECORDER = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.AGENTEST_LOADED, url + '\\\\n');
  return next(url, context);
}\`));
const required = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const files = Object.keys(required).map((file) => pathToFileURL(file).href + '\\n');
  appendFileSync(process.env.AGENTEST_LOADED, files.join(''));
});
`;
