// Puts a freshly built folder where the live one is (scripts/bundle.mjs's bundle), disturbing what runs from the
// live one as little as possible. A second `npm test` on the same checkout runs commands from the bundle while the
// first one's packaging test rebuilds it (`npm run pack`): from unchanged sources the build is byte for byte the
// same, so the live folder is kept and nothing running from it loses a chunk it has yet to load.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Replaces `live` with `built` unless both hold the same files with the same bytes; `built` is gone afterwards.
 * A replacement is two renames, so `live` is missing only between them (deleting the old folder first would leave
 * it missing, or half there, for as long as the deletion takes).
 * @returns {'unchanged' | 'replaced'}
 */
export function replaceDir(built, live) {
  if (sameFiles(built, live)) {
    rmSync(built, { recursive: true, force: true });
    return 'unchanged';
  }
  const old = `${live}-old-${process.pid}`;
  if (existsSync(live)) renameSync(live, old);
  renameSync(built, live);
  rmSync(old, { recursive: true, force: true });
  return 'replaced';
}

function sameFiles(a, b) {
  if (!existsSync(b)) return false;
  const files = (dir) =>
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((file) => statSync(join(dir, file)).isFile())
      .sort();
  const inA = files(a);
  const inB = files(b);
  return (
    inA.length === inB.length &&
    inA.every((file, i) => file === inB[i] && readFileSync(join(a, file)).equals(readFileSync(join(b, file))))
  );
}
