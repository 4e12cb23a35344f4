#!/usr/bin/env node
// Runs the agentest CLI from source (no build step): `npm run agentest -- test -i …`.
import { spawnSync } from 'node:child_process';

const cli = new URL('../packages/cli/src/bin.ts', import.meta.url).pathname;
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--conditions=@agentest/source', cli, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
