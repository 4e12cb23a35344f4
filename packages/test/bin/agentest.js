#!/usr/bin/env node
// The `agentest` command. It is a committed file, not a build output: npm links a package's bin when
// it installs the package, and in a fresh clone of the agentest repository that happens before
// `prepare` has built dist/. A link to a missing file would leave `npx agentest` to fetch an
// unrelated package of that name from the registry.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    `agentest is not built: ${fileURLToPath(entry)} is missing.\n` +
      'In a clone of the agentest repository run `npm run build` (`npm ci` runs it too); an installed\n' +
      '@agentest/test always contains it, so reinstall the package.\n',
  );
  process.exit(2);
}
await import(entry.href);
