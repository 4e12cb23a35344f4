/**
 * The `agentest` command as a function of its arguments: what `bin.ts` runs, and what the bundled command
 * (`@agentest/test`'s bin) calls in its one script. `--version` is answered before the command-line parser
 * loads, so it starts about as fast as Node.
 */
export async function runCommand(args: readonly string[]): Promise<number> {
  if (args.length === 1 && args[0] === '--version') {
    const { cliVersion } = await import('./version.js');
    process.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  const { runCli } = await import('./program.js');
  const code = await runCli(args);
  process.exitCode = code;
  // Something a plugin left open (a socket, a pool) must not keep a finished run alive.
  setTimeout(() => process.exit(code), 2_000).unref();
  return code;
}
