#!/usr/bin/env node
// The `agentest` command. It is a committed file, not a build output: npm links a package's bin when
// it installs the package, and in a fresh clone of the agentest repository that happens before
// `prepare` has built dist/. A link to a missing file would leave `npx agentest` to fetch an
// unrelated package of that name from the registry.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The bundle (scripts/bundle.mjs): a few dozen chunks start far faster than the ~400 modules of dist/.
const entry = new URL('../dist/bundle/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    `agentest is not built: ${fileURLToPath(entry)} is missing.\n` +
      'In a clone of the agentest repository run `npm run build` (`npm ci` runs it too); an installed\n' +
      '@agentest/test always contains it, so reinstall the package.\n',
  );
  process.exit(2);
}
// Stack traces are printed only with DEBUG=agentest…; then they name the TypeScript sources. Source maps
// are read as modules load, so the choice is made before the bundle loads (it costs every run otherwise).
if (/agentest/.test(process.env.DEBUG ?? '')) process.setSourceMapsEnabled(true);
await import(entry.href);
