#!/usr/bin/env node
// The `fake-llm` command: a committed file, because npm links bins before `prepare` has built dist/
// in a fresh clone of the agentest repository.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    `fake-llm is not built: ${fileURLToPath(entry)} is missing.\nIn a clone of the agentest repository run \`npm run build\`; an installed @agentest/fake-llm always contains it, so reinstall the package.\n`,
  );
  process.exit(2);
}
await import(entry.href);
