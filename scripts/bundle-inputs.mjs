// What the bundle (scripts/bundle.mjs) was built from, so that a checkout can tell when it is out of date: `tsc -b`
// rebuilds dist/ after a source change, but the bundle, which the `agentest` command runs, only when asked. Each
// input's modification time is recorded beside the bundle; checking them is a few hundred `stat` calls.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const RECORD = 'packages/test/dist/bundle/inputs.json';

/** Records the inputs, paths relative to `base` (the repository's root). */
export function recordInputs(files, { base = root, record = join(root, RECORD) } = {}) {
  const inputs = Object.fromEntries(
    [...new Set(files)].sort().map((file) => [file, statSync(join(base, file)).mtimeMs]),
  );
  writeFileSync(record, `${JSON.stringify(inputs, null, 1)}\n`);
}

/** Why the bundle is out of date (never built, or an input changed or is gone), or undefined when it is not. */
export function bundleStaleness({ base = root, record = join(root, RECORD) } = {}) {
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(record, 'utf8'));
  } catch {
    return 'it records no inputs: it was not built, or by an older scripts/bundle.mjs';
  }
  for (const [file, recorded] of Object.entries(inputs)) {
    const modified = statSync(join(base, file), { throwIfNoEntry: false })?.mtimeMs;
    if (modified !== recorded) return `${file} ${modified === undefined ? 'is gone' : 'changed'}`;
  }
  return undefined;
}
