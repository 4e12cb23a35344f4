import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createKernel, type AgentestPlugin, type CaseResult, type TestCase } from '@agentest/kernel';
import consoleReporter from '../src/index.js';

/** A stream whose reader went away after the first write, as a pipe into `head -1` does. */
class ClosedAfterFirstWrite extends Writable {
  writes = 0;
  override _write(_chunk: unknown, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.writes++;
    done(this.writes > 1 ? Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }) : undefined);
  }
}

function cases(n: number): AgentestPlugin {
  return {
    name: 'test:cases',
    apply({ hooks }) {
      hooks.load.tap('test:cases', () => ({
        name: 'inputs.jsonl',
        needsAgent: false,
        cases: () =>
          Array.from({ length: n }, (_, i): TestCase => ({
            id: `C${i}`,
            kind: 'agent',
            input: 'x',
            messages: [],
            source: { file: 'x', line: i + 1 },
          })),
      }));
      hooks.execute.for('agent').tapPromise('test:cases', async (_tc, ctx) => {
        await new Promise((resolve) => setImmediate(resolve));
        return { run: ctx.run, status: 'passed', duration_ms: 1, assertions: [], metrics: {} };
      });
    },
  };
}

test('a stream that fails mid-run (EPIPE) stops the printing quietly; the run and the other reporters finish', async () => {
  const stream = Object.assign(new ClosedAfterFirstWrite(), { isTTY: false });
  const results: CaseResult[] = [];
  const collector: AgentestPlugin = {
    name: 'test:collect',
    apply: ({ hooks }) => hooks.report.tap('test:collect', (e) => void (e.type === 'result' && results.push(e))),
  };
  const outcome = await createKernel({ plugins: [cases(50), consoleReporter({ stream }), collector] }).run({
    input: { input: 'inline', cwd: process.cwd() },
    runs: 1,
    parallel: 1,
    failFast: false,
    env: {},
    verbose: false,
  });
  assert.deepEqual(outcome.errors, []);
  assert.equal(results.length, 50);
  assert.ok(stream.destroyed, 'the stream failed');
  assert.equal(stream.writes, 2, 'nothing more is written once the stream failed');
});
