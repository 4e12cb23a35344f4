#!/usr/bin/env node
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  // Answered before the command-line parser loads: `agentest --version` starts about as fast as Node.
  const { cliVersion } = await import('./version.js');
  process.stdout.write(`${cliVersion()}\n`);
} else {
  const { runCli } = await import('./program.js');
  const code = await runCli(args);
  process.exitCode = code;
  // Something a plugin left open (a socket, a pool) must not keep a finished run alive.
  setTimeout(() => process.exit(code), 2_000).unref();
}
