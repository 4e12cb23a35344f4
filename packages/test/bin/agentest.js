#!/usr/bin/env node
// The `agentest` command. It is a committed file, not a build output: npm links a package's bin when
// it installs the package, and in a fresh clone of the agentest repository that happens before
// `prepare` has built dist/. A link to a missing file would leave `npx agentest` to fetch an
// unrelated package of that name from the registry.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  // Answered from the package's manifest: loading the bundle to print a version would double the time it takes.
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // The loader (dist/load-bundle.js) runs the bundle scripts/bundle.mjs builds, with V8's code cache.
  const loader = new URL('../dist/load-bundle.js', import.meta.url);
  const { loadBundle, BUNDLE_SCRIPT } = existsSync(loader) ? await import(loader.href) : {};
  if (!loadBundle || !existsSync(BUNDLE_SCRIPT)) {
    process.stderr.write(
      `agentest is not built: ${loadBundle ? BUNDLE_SCRIPT : fileURLToPath(loader)} is missing.\n` +
        'In a clone of the agentest repository run `npm run build` (`npm ci` runs it too); an installed\n' +
        '@agentest/test always contains it, so reinstall the package.\n',
    );
    process.exit(2);
  }
  // Stack traces are printed only with DEBUG=agentest…; then they name the TypeScript sources (and the bundle
  // loads the slower way, which Node maps).
  if (/agentest/.test(process.env.DEBUG ?? '')) process.setSourceMapsEnabled(true);
  await loadBundle().command().runCommand(args);
}
