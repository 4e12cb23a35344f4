/** What the user asked for, from the keyboard or a signal. */
export type WatchCommand = 'all' | 'failed' | 'again' | 'quit' | 'abort';

/** The watch loop's keys, as Vitest has them. */
const KEYS: Record<string, WatchCommand> = {
  a: 'all',
  f: 'failed',
  '\r': 'again',
  '\n': 'again',
  q: 'quit',
  // Ctrl-C: in raw mode the terminal sends it as a key instead of a SIGINT.
  '\u0003': 'quit',
};

export const KEY_HELP =
  'press a to run all, f to run the failed cases, Enter to run the last selection again, q to quit';

/**
 * Listens to the keyboard (only when stdin is a terminal: a pipe or /dev/null is left alone, and the
 * loop just watches) and to SIGINT, SIGTERM and SIGHUP. SIGINT quits like `q`; SIGTERM and SIGHUP
 * abort. Returns the function that stops listening and gives the terminal back.
 */
export function listenForCommands(stdin: NodeJS.ReadStream, onCommand: (command: WatchCommand) => void): () => void {
  const onData = (data: Buffer | string) => {
    for (const key of String(data)) {
      const command = KEYS[key.toLowerCase()];
      if (command) onCommand(command);
    }
  };
  const interactive = stdin.isTTY === true;
  if (interactive) {
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
  }
  const onSigint = () => onCommand('quit');
  const onSigterm = () => onCommand('abort');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.on('SIGHUP', onSigterm);
  return () => {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    process.off('SIGHUP', onSigterm);
    if (!interactive) return;
    stdin.off('data', onData);
    stdin.setRawMode(false);
    stdin.pause();
  };
}

/** Whether the loop reads keys: stdin is a terminal. */
export function readsKeys(stdin: NodeJS.ReadStream): boolean {
  return stdin.isTTY === true;
}
