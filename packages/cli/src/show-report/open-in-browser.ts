import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** How a report is opened: not at all (`BROWSER=none`), with the command `BROWSER` names, or the system's opener. */
export type OpenOutcome = { opened: true; command: string } | { opened: false; reason?: string };

/**
 * Opens a file in the default browser without waiting for it: `open` on macOS, `start` on Windows,
 * `xdg-open` elsewhere. `BROWSER` overrides the command, as in create-react-app; `BROWSER=none` opens
 * nothing (CI, tests, a machine without a display), and the caller prints the path instead.
 */
export async function openInBrowser(file: string, env: NodeJS.ProcessEnv): Promise<OpenOutcome> {
  const browser = env.BROWSER?.trim();
  if (browser?.toLowerCase() === 'none') return { opened: false };
  const url = pathToFileURL(file).href;
  const [command, args] = browser ? [browser, [url]] : systemOpener(url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', (error) => resolve({ opened: false, reason: `${command}: ${error.message}` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ opened: true, command });
    });
  });
}

function systemOpener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  // `start` is built into cmd; its first quoted argument is a window title, hence the empty one.
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}
