/**
 * Property-based checks of what reads configuration: the config normaliser (`normaliseConfig`), the
 * connector factory (`createChatClient`) and the `--ctx` reader (`readContextFile`). Whatever config
 * they are given, they return a value or throw a structured `AgentestError` (exit code 2) that names
 * the key at fault; never any other throw.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { AgentestError } from '@agentest/kernel';
import { normaliseConfig, readContextFile } from '@agentest/cli';
import { createChatClient } from '@agentest/connectors';
import { workspace } from './helpers/workspace.js';

const RUNS = Number(process.env.AGENTEST_PROPERTY_RUNS ?? 300);

async function onlyStructured(fn: () => unknown, label: string): Promise<unknown> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof AgentestError))
      throw new Error(
        `${label}: unstructured throw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        { cause: error },
      );
    assert.equal(error.exitCode, 2, `${label}: ${error.code} is a config error: ${error.message}`);
    assert.ok(
      error.message.length > 10 && error.message.length < 2_000,
      `${label}: message length ${error.message.length}`,
    );
    assert.doesNotMatch(error.message, /\n\s+at /);
    return error;
  }
}

const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const anyValue = fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 }), fc.constant([]), fc.constant({}));
const duration = fc.oneof(
  fc.constantFrom('30s', '2m30s', '500ms', '5 minutes', '', '-1s', '1h1h'),
  fc.integer(),
  fc.double(),
  scalar,
);
const reporterEntry = fc.oneof(
  fc.constantFrom(
    'console',
    'json',
    'jsonl',
    'markdown',
    'html',
    'junit',
    'summary',
    'github',
    'report.json',
    'htlm',
    './missing.mjs',
    '/abs/missing.ts',
    'x.ts',
  ),
  fc.tuple(
    fc.constantFrom('json', 'markdown', 'nope', 'llm'),
    fc.oneof(
      fc.record({ output: fc.oneof(fc.string(), scalar), agent: fc.oneof(fc.string(), scalar) }, { requiredKeys: [] }),
      anyValue,
    ),
  ),
  fc.record({ name: fc.oneof(fc.string(), scalar), onResult: fc.constant(() => undefined) }, { requiredKeys: [] }),
  anyValue,
);
const connector = fc.record(
  {
    type: fc.oneof(fc.constantFrom('openai', 'anthropic', 'mock', 'gemini'), scalar),
    model: fc.oneof(fc.string(), scalar, fc.constant('$ENV.AGENTEST_UNSET_MODEL')),
    host: fc.oneof(
      fc.constantFrom('http://127.0.0.1:9', 'https://api.openai.com', 'not a url', '$ENV.AGENTEST_UNSET_HOST', ''),
      scalar,
    ),
    key: fc.oneof(fc.constantFrom('$ENV.AGENTEST_UNSET_KEY', 'sk-x', ''), scalar),
    temperature: fc.oneof(fc.double(), scalar),
    retries: fc.oneof(fc.integer({ min: -5, max: 50 }), scalar),
    timeout: duration,
    headers: anyValue,
    options: fc.oneof(fc.record({ model: fc.oneof(fc.string(), scalar), key: scalar }, { requiredKeys: [] }), anyValue),
    replies: anyValue,
  },
  { requiredKeys: [] },
);
const config = fc.oneof(
  fc.record(
    {
      plugins: fc.oneof(
        fc.array(
          fc.oneof(
            anyValue,
            fc.record(
              { name: fc.string(), apply: fc.constant(() => undefined), enforce: scalar },
              { requiredKeys: [] },
            ),
          ),
          { maxLength: 3 },
        ),
        anyValue,
      ),
      reporters: fc.oneof(fc.array(reporterEntry, { maxLength: 3 }), anyValue),
      agents: fc.oneof(
        fc.dictionary(fc.string(), fc.oneof(fc.record({ connector: fc.oneof(fc.string(), scalar) }), anyValue), {
          maxKeys: 2,
        }),
        anyValue,
      ),
      connectors: fc.oneof(fc.dictionary(fc.string(), connector, { maxKeys: 2 }), anyValue),
      test: fc.oneof(
        fc.record(
          {
            parallel: anyValue,
            timeout: duration,
            runs: anyValue,
            user: anyValue,
            team: anyValue,
            ctx: anyValue,
            failFast: anyValue,
            include: anyValue,
            paralel: anyValue,
          },
          { requiredKeys: [] },
        ),
        anyValue,
      ),
      thresholds: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.double(), scalar), { maxKeys: 3 }), anyValue),
      script: anyValue,
      yao: anyValue,
      kit: anyValue,
      tset: anyValue,
    },
    { requiredKeys: [] },
  ),
  anyValue,
);

describe('property: configuration readers only return values or structured errors', () => {
  const dir = workspace('prop-config');

  test('normaliseConfig on generated configs', async () => {
    await fc.assert(
      fc.asyncProperty(config, async (raw) => {
        await onlyStructured(
          () => normaliseConfig(raw, { cwd: dir, file: join(dir, 'agentest.config.ts') }),
          'normaliseConfig',
        );
      }),
      { numRuns: RUNS },
    );
  });

  test('createChatClient on generated connector definitions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(connector, anyValue), async (definition) => {
        await onlyStructured(() => createChatClient('gen.conn', definition as never, { PATH: '' }), 'createChatClient');
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test('readContextFile on generated --ctx files (text and JSON)', async () => {
    const ctx = fc.oneof(
      fc
        .record(
          {
            chat_id: anyValue,
            locale: anyValue,
            referer: anyValue,
            metadata: anyValue,
            client: fc.oneof(
              fc.record({ type: anyValue, ip: anyValue, user_agent: anyValue, typo: anyValue }, { requiredKeys: [] }),
              anyValue,
            ),
            authorized: fc.oneof(
              fc.record(
                {
                  user_id: anyValue,
                  remember_me: anyValue,
                  constraints: fc.oneof(
                    fc.record({ owner_only: anyValue, extra: anyValue }, { requiredKeys: [] }),
                    anyValue,
                  ),
                },
                { requiredKeys: [] },
              ),
              anyValue,
            ),
            locle: anyValue,
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(ctx, async (text) => {
        const path = join(dir, `ctx-${n++}.json`);
        writeFileSync(path, text);
        const outcome = await onlyStructured(() => readContextFile(path, dir), 'readContextFile');
        if (outcome instanceof AgentestError) {
          assert.equal(outcome.code, 'CONTEXT_FILE_INVALID');
          assert.ok(outcome.message.startsWith(path), outcome.message);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
