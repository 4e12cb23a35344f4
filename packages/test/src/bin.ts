#!/usr/bin/env node
import { runCli } from '@agentest/cli';

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Something a plugin left open (a socket, a pool) must not keep a finished run alive.
setTimeout(() => process.exit(code), 2_000).unref();
