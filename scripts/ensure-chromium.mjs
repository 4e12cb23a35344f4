#!/usr/bin/env node
// The HTML report's tests drive Debian's Chromium through playwright-core. On a fresh machine this
// installs it (root + apt only); elsewhere it says what to install. It never downloads a browser build.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const CHROMIUM = process.env.AGENTEST_CHROMIUM ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt) {
    console.error(
      `Chromium not found at ${CHROMIUM}. Install it (Debian: apt-get install chromium) or set AGENTEST_CHROMIUM.`,
    );
    return false;
  }
  console.error('Installing Chromium from Debian packages for the HTML report tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install =
    update.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  return Boolean(install && install.status === 0 && existsSync(CHROMIUM));
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensureChromium() ? 0 : 1);
