#!/usr/bin/env node
// `node run-test-files.mjs --concurrency=<n> --timeout=<ms> <file>…`: runs the test files through node:test's
// `run()`, in the order given. Node 20's `node --test <files>` sorts them by path, and scripts/test.mjs chooses
// which start first. Each file runs in a child process started with this process's Node options (`--import tsx`,
// the conditions, `--test-timeout`), as under `node --test`; the report is TAP, or the spec on a terminal, as there.
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const options = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => arg.slice(2).split('=')),
);
const files = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

const stream = run({ files, concurrency: Number(options.concurrency), timeout: Number(options.timeout) });
stream.on('test:fail', () => (process.exitCode = 1));
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
