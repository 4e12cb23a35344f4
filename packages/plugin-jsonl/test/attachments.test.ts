import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentestError, TestCase } from '@agentest/kernel';
import type { JsonlPluginOptions } from '../src/index.js';
import { collect, load } from './helpers.js';

/**
 * A project: `app/` (a Yao app root, with `app.yao`) holding the suite in `app/assistants/a/tests/`
 * and a shared picture in `app/shared/`, next to `outside/` (not part of the app).
 */
function project(): { root: string; tests: string } {
  const root = mkdtempSync(join(tmpdir(), 'agentest-attach-'));
  const tests = join(root, 'app', 'assistants', 'a', 'tests');
  for (const dir of [tests, join(root, 'app', 'shared'), join(root, 'outside')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(root, 'app', 'app.yao'), '{}');
  writeFileSync(join(tests, 'here.txt'), 'in the suite folder');
  writeFileSync(join(root, 'app', 'shared', 'logo.png'), 'png');
  writeFileSync(join(root, 'outside', 'secret.txt'), 'not for the model');
  return { root, tests };
}

function fileCase(source: string): string {
  return JSON.stringify({ id: 'F1', input: [{ type: 'file', source }] });
}

async function loadCase(tests: string, source: string, options?: JsonlPluginOptions): Promise<TestCase> {
  writeFileSync(join(tests, 'inputs.jsonl'), fileCase(source));
  const [only] = await collect((await load('inputs.jsonl', tests, options))!);
  return only!;
}

async function refused(tests: string, source: string, message: RegExp, options?: JsonlPluginOptions): Promise<void> {
  await assert.rejects(loadCase(tests, source, options), (error: AgentestError) => {
    assert.equal(error.code, 'INPUT_INVALID');
    assert.match(error.message, /^inputs\.jsonl:1: case "F1": content part 0 \(file\): /);
    assert.match(error.message, message);
    return true;
  });
}

const attached = (testCase: TestCase) => (testCase.messages[0]!.content as { file: { url: string } }[])[0]!.file.url;

test('files in the suite folder and anywhere under the app root are attached', async () => {
  const { tests } = project();
  assert.match(attached(await loadCase(tests, 'file://here.txt')), /^data:text\/plain;base64,/);
  assert.match(attached(await loadCase(tests, 'file://../../../shared/logo.png')), /^data:image\/png;base64,/);
});

test('a path outside the suite folder and the app root is refused, however it is written', async () => {
  const { root, tests } = project();
  const outside = /is outside the suite's folder and the app root; .*list its folder in the config's files\.allow/;
  await refused(tests, 'file:///proc/self/environ', outside);
  await refused(tests, 'file://../../../../../../../../../../etc/passwd', outside);
  await refused(tests, `file://${join(root, 'outside', 'secret.txt')}`, outside);
  await refused(tests, 'file://../../../../outside/secret.txt', outside);
});

test('a symlink inside the suite folder that points outside is refused (the real path decides)', async () => {
  const { root, tests } = project();
  symlinkSync(join(root, 'outside', 'secret.txt'), join(tests, 'innocent.txt'));
  await refused(tests, 'file://innocent.txt', /secret\.txt \(from "file:\/\/innocent\.txt"\) is outside/);
});

test('files.allow admits a folder outside (relative to the working directory, or absolute)', async () => {
  const { root, tests } = project();
  const source = `file://${join(root, 'outside', 'secret.txt')}`;
  assert.match(
    attached(await loadCase(tests, source, { files: { allow: [join(root, 'outside')] } })),
    /^data:text\/plain;base64,/,
  );
  assert.match(
    attached(await loadCase(tests, source, { files: { allow: ['../../../../outside'] } })),
    /^data:text\/plain;base64,/,
  );
});

test('a file over the size cap is refused from its size, without reading it (default 20 MB, files.maxBytes)', async () => {
  const { tests } = project();
  // A sparse 420 MB file: refused from `stat`, so the test never holds it in memory.
  const fd = openSync(join(tests, 'huge.bin'), 'w');
  ftruncateSync(fd, 420 * 1024 * 1024);
  closeSync(fd);
  const before = process.memoryUsage().rss;
  await refused(
    tests,
    'file://huge.bin',
    /huge\.bin is 420 MB, over the limit of 20 MB for attachments — use a smaller file, or raise files\.maxBytes/,
  );
  assert.ok(process.memoryUsage().rss - before < 200 * 1024 * 1024, 'the file was not read');
  await refused(tests, 'file://here.txt', /here\.txt is 19 bytes, over the limit of 5 bytes/, {
    files: { maxBytes: 5 },
  });
});
