import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import * as z from 'zod';
import {
  defineDocumentReporter,
  parseReporterOptions,
  reporterOptionsSchema,
  writeFileAtomic,
  type Report,
} from '../src/index.js';
import { mixedCases, runScenario, tempDir } from './scenario.js';

test('the collector builds one Report: the typed suite kind, every result without the full reply', async () => {
  const dir = await tempDir();
  let seen: Report | undefined;
  const reporter = defineDocumentReporter({
    name: 'probe',
    defaultFile: 'probe.txt',
    options: { cwd: dir },
    render(report) {
      seen = report;
      return `${report.metadata.kind}: ${report.results.length}`;
    },
  });
  const cases = mixedCases().map((c) => ({
    ...c,
    behaviour: async () => ({ output: 'x', reply: { content: 'x', text: 'x' } }),
  }));
  await runScenario(cases, [reporter], { meta: { mode: 'kit', files: ['cases.json'] } });
  assert.equal(seen?.metadata.kind, 'kit');
  assert.equal(seen?.metadata.output_file, join(dir, 'probe.txt'));
  assert.deepEqual(seen?.metadata.suite_meta, { mode: 'kit', files: ['cases.json'] });
  assert.ok(seen?.results.every((r) => r.runs.every((run) => !('reply' in run))));
  assert.equal(await readFile(join(dir, 'probe.txt'), 'utf8'), 'kit: 6');
});

test('script suites carry their script and path on the report', async () => {
  const dir = await tempDir();
  let seen: Report | undefined;
  await runScenario(
    [{ id: 'TestA' }],
    [
      defineDocumentReporter({
        name: 'probe',
        defaultFile: 'p.txt',
        options: { cwd: dir },
        render: (r) => ((seen = r), ''),
      }),
    ],
    { kind: 'script', meta: { mode: 'script', script: 'scripts.expense.setup', script_path: 'expense/setup_test.ts' } },
  );
  assert.equal(seen?.metadata.kind, 'script');
  assert.equal(seen?.metadata.script, 'scripts.expense.setup');
  assert.equal(seen?.metadata.script_path, 'expense/setup_test.ts');
});

test('reporter options are validated with one message naming the reporter and every option at fault', () => {
  const schema = reporterOptionsSchema.extend({ limit: z.number().optional() });
  assert.deepEqual(parseReporterOptions('probe', schema, { output: 'a.txt', limit: 3 }), { output: 'a.txt', limit: 3 });
  assert.throws(
    () => parseReporterOptions('probe', schema, { output: '', limit: 'x' }),
    (e: AgentestError) =>
      e.code === 'PLUGIN_INVALID' &&
      /reporter "probe": option "output" must not be empty; option "limit"/.test(e.message) &&
      e.where === 'reporters: probe',
  );
});

test('writeFileAtomic creates parent folders, replaces the file whole, and keeps the old one when it cannot write', async () => {
  const dir = await tempDir();
  const target = join(dir, 'a/b/report.txt');
  await writeFileAtomic(target, 'first');
  await writeFileAtomic(target, 'second');
  assert.equal(await readFile(target, 'utf8'), 'second');
  // A folder where the file should go: the rename fails, nothing is left behind, the cause is named.
  const blocked = join(dir, 'blocked');
  await mkdir(join(blocked, 'report.txt'), { recursive: true });
  await writeFile(join(blocked, 'keep.txt'), 'kept');
  await assert.rejects(writeFileAtomic(join(blocked, 'report.txt'), 'x'), (e: Error & { code?: string }) => {
    assert.match(e.message, /cannot write .*blocked\/report\.txt: .*; any previous file there is unchanged/);
    assert.ok(e.code);
    return true;
  });
  assert.deepEqual((await readdir(blocked)).sort(), ['keep.txt', 'report.txt']);
});
