import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { HANG_MS } from './deadlines.js';

export interface Event {
  type: string;
  id?: string;
  status?: string;
  error?: string;
  [key: string]: unknown;
}

/** Parses a `.jsonl` event stream strictly: every line must be one JSON object with a `type`. */
export function readEvents(path: string): Event[] {
  const text = readFileSync(path, 'utf8');
  assert.ok(text.endsWith('\n'), `${path} does not end with a newline (last line cut?)`);
  return text
    .split('\n')
    .slice(0, -1)
    .map((line, i) => {
      let event: Event;
      try {
        event = JSON.parse(line) as Event;
      } catch (error) {
        throw new Error(`${path}:${i + 1} is not valid JSON (${(error as Error).message}): ${line.slice(0, 200)}`, {
          cause: error,
        });
      }
      assert.equal(typeof event.type, 'string', `${path}:${i + 1} has no "type"`);
      return event;
    });
}

export function results(events: readonly Event[]): Event[] {
  return events.filter((e) => e.type === 'result');
}

/** Asserts each id has exactly one `result` line, and returns the results by id. */
export function resultsById(events: readonly Event[], expectedIds?: readonly string[]): Map<string, Event> {
  const byId = new Map<string, Event>();
  for (const r of results(events)) {
    assert.ok(!byId.has(r.id!), `case "${r.id}" has more than one result line`);
    byId.set(r.id!, r);
  }
  if (expectedIds)
    assert.deepEqual([...byId.keys()].sort(), [...expectedIds].sort(), 'every case is reported exactly once');
  return byId;
}

/** Counts complete `result` lines in a file that is still being written. */
export function countResultLines(path: string): number {
  if (!existsSync(path)) return 0;
  const text = readFileSync(path, 'utf8');
  let count = 0;
  for (const line of text.split('\n').slice(0, -1)) if (line.startsWith('{"type":"result"')) count++;
  return count;
}

/** Resolves once `condition()` holds, checking every few ms; rejects at the deadline (it never will). */
export async function waitFor(condition: () => boolean, what: string, deadlineMs = HANG_MS): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
