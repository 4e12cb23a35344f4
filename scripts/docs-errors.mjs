#!/usr/bin/env node
// Regenerates docs/errors.md from the kernel's error catalogue.
import { spawnSync } from 'node:child_process';
const code = `import { renderErrorCatalogue } from '@agentest/kernel/errors'; import { writeFileSync, mkdirSync } from 'node:fs';
mkdirSync('docs', { recursive: true }); writeFileSync('docs/errors.md', renderErrorCatalogue()); console.log('wrote docs/errors.md');`;
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--conditions=@agentest/source', '--input-type=module', '-e', code],
  { stdio: 'inherit', cwd: new URL('..', import.meta.url).pathname },
);
process.exit(r.status ?? 1);
