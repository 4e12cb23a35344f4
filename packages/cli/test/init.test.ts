import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { agentest, fixture, installAgentest } from './helpers.js';
import { agentestInProcess } from './in-process.js';

const EXAMPLE_APP = fileURLToPath(new URL('../../../examples/app', import.meta.url));
const SCAFFOLD = ['agentest.config.ts', 'tests/inputs.jsonl', 'tests/agent.ts', '.github/workflows/agentest.yml'];

test('init sets up a project whose suite passes offline, and says what to run next', async () => {
  const dir = fixture({});
  const init = await agentestInProcess(['init'], { cwd: dir });
  assert.equal(init.code, 0, init.stderr);
  for (const path of SCAFFOLD) assert.ok(existsSync(join(dir, path)), `${path} written\n${init.stdout}`);
  assert.equal(readFileSync(join(dir, 'tests/inputs.jsonl'), 'utf8').trim().split('\n').length, 3);
  assert.match(
    readFileSync(join(dir, 'agentest.config.ts'), 'utf8'),
    /import \{ defineConfig \} from '@agentest\/test'/,
  );
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  assert.match(manifest.devDependencies['@agentest/test'], /^\^\d+\.\d+\.\d+/);
  assert.match(init.stdout, /created +agentest\.config\.ts/);
  assert.match(init.stdout, /Next:\n {2}npm install\n {2}npx agentest test\n/);
  const workflow = readFileSync(join(dir, '.github/workflows/agentest.yml'), 'utf8');
  assert.match(workflow, /run: npx agentest test/);
  assert.match(workflow, /path: agentest-report\//);
  assert.match(readFileSync(join(dir, '.gitignore'), 'utf8'), /^# agentest\nagentest-report\/\n\.agentest\/\n/m);
  assert.match(init.stdout, /created +\.gitignore/);

  installAgentest(dir);
  const run = await agentest(['test'], { cwd: dir });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /Passed: +3\n/);
  assert.ok(existsSync(join(dir, 'agentest-report/index.html')), 'the HTML report the workflow uploads');
});

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('the scaffold type-checks with strict TypeScript under node16, nodenext and bundler resolution', async () => {
  const dir = fixture({});
  const init = await agentestInProcess(['init'], { cwd: dir });
  assert.equal(init.code, 0, init.stderr);
  // An import the config loader (esbuild) and tsc both take without allowImportingTsExtensions.
  assert.match(readFileSync(join(dir, 'agentest.config.ts'), 'utf8'), /from '\.\/tests\/agent\.js';/);
  installAgentest(dir);
  // What `tsc --init` writes, with each module resolution a Node project picks.
  for (const [module, moduleResolution] of [
    ['node16', 'node16'],
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ]) {
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: 'es2022',
      module,
      moduleResolution,
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['**/*.ts'] }));
    const tsc = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
    assert.equal(tsc.status, 0, `moduleResolution ${moduleResolution}:\n${tsc.stdout}${tsc.stderr}`);
  }
});

test('init never overwrites a file without --force, and lists what it skipped', async () => {
  const dir = fixture({
    'tests/inputs.jsonl': '{"id": "MINE", "input": "hi"}\n',
    '.gitignore': 'node_modules/\n.agentest/',
  });
  const first = await agentestInProcess(['init'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /skipped +tests\/inputs\.jsonl \(exists; --force overwrites it\)/);
  assert.equal(readFileSync(join(dir, 'tests/inputs.jsonl'), 'utf8'), '{"id": "MINE", "input": "hi"}\n');
  const manifest = readFileSync(join(dir, 'package.json'), 'utf8');
  const ignored = readFileSync(join(dir, '.gitignore'), 'utf8');
  assert.match(
    ignored,
    /^node_modules\/\n\.agentest\/\n\n# agentest\nagentest-report\/\n\*\*\/tests\/output-\*\n/,
    'appended, once',
  );

  const again = await agentestInProcess(['init'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  for (const path of SCAFFOLD) assert.match(again.stdout, new RegExp(`skipped +${path.replace(/\./g, '\\.')} `));
  assert.doesNotMatch(again.stdout, /created|added/);
  assert.match(again.stdout, /Next:\n {2}npx agentest test\n$/, "the kept config is init's own");
  assert.equal(readFileSync(join(dir, 'package.json'), 'utf8'), manifest, 'the dependency is added once');
  assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8'), ignored);

  const forced = await agentestInProcess(['init', '--force'], { cwd: dir });
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /overwritten +tests\/inputs\.jsonl/);
  assert.doesNotMatch(readFileSync(join(dir, 'tests/inputs.jsonl'), 'utf8'), /MINE/);
});

test('init [dir] creates the folder; without a package.json the next step installs @agentest/test', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'agentest-init-'));
  const init = await agentestInProcess(['init', 'my agent'], { cwd: parent });
  assert.equal(init.code, 0, init.stderr);
  assert.ok(existsSync(join(parent, 'my agent', 'agentest.config.ts')));
  assert.ok(!existsSync(join(parent, 'my agent', 'package.json')), 'no package.json is made up');
  assert.match(init.stdout, /Next:\n {2}cd "my agent"\n {2}npm i -D @agentest\/test\n {2}npx agentest test\n/);
});

test('init [dir] that is a file, or holds a file where tests/ goes, is exit 2 naming it, not INTERNAL', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'agentest-init-'));
  writeFileSync(join(parent, 'notes.txt'), 'a file\n');
  const file = await agentestInProcess(['init', 'notes.txt'], { cwd: parent });
  assert.equal(file.code, 2, file.stderr);
  assert.match(file.stderr, /error\[FLAG_INVALID\]: \[dir\] notes\.txt: notes\.txt is a file where a folder is needed/);
  mkdirSync(join(parent, 'project'));
  writeFileSync(join(parent, 'project', 'tests'), 'a file named tests\n');
  const blocked = await agentestInProcess(['init', 'project'], { cwd: parent });
  assert.equal(blocked.code, 2, blocked.stderr);
  assert.match(blocked.stderr, /\[dir\] project: project\/tests is a file where a folder is needed/);
  assert.doesNotMatch(file.stderr + blocked.stderr, /INTERNAL|Report it/);
});

test('init refuses a package.json that is not JSON, before writing anything', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-init-'));
  writeFileSync(join(dir, 'package.json'), '{ "name": ');
  const init = await agentestInProcess(['init'], { cwd: dir });
  assert.equal(init.code, 2);
  assert.match(init.stderr, /error\[INPUT_INVALID\]: .*package\.json: not valid JSON/);
  assert.ok(!existsSync(join(dir, 'agentest.config.ts')));
});

/** A Yao app with two offline assistants, copied from the example app. */
function yaoApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-init-yao-'));
  cpSync(join(EXAMPLE_APP, 'app.yao'), join(dir, 'app.yao'));
  for (const name of ['shop', 'casewriter'])
    cpSync(join(EXAMPLE_APP, 'assistants', name), join(dir, 'assistants', name), {
      recursive: true,
      filter: (src) => !src.includes('tests'),
    });
  cpSync(join(EXAMPLE_APP, 'connectors', 'mock'), join(dir, 'connectors', 'mock'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{\n\t"name": "yao-app",\n\t"private": true\n}\n');
  return dir;
}

test('in a Yao app, init writes a suite for its first assistant, says which, and the suite passes', async () => {
  const dir = yaoApp();
  const init = await agentestInProcess(['init'], { cwd: dir });
  assert.equal(init.code, 0, init.stderr);
  assert.match(
    init.stdout,
    /A suite for the Yao assistant "casewriter" \(of casewriter, shop; choose another with --assistant <id>\)/,
  );
  assert.ok(existsSync(join(dir, 'assistants/casewriter/tests/inputs.jsonl')));
  assert.ok(!existsSync(join(dir, 'tests/agent.ts')), 'no example adapter in a Yao app');
  assert.match(
    readFileSync(join(dir, 'agentest.config.ts'), 'utf8'),
    /suites: \['assistants\/casewriter\/tests\/inputs\.jsonl'\]/,
  );
  assert.match(readFileSync(join(dir, 'package.json'), 'utf8'), /\n\t"devDependencies": \{\n\t\t"@agentest\/test"/);

  installAgentest(dir);
  const run = await agentest(['test'], { cwd: dir });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /Passed: +3\n/);
});

test('in a Yao app, --assistant picks the assistant; an unknown one is a flag error listing them', async () => {
  const dir = yaoApp();
  const chosen = await agentestInProcess(['init', '--assistant', 'shop'], { cwd: dir });
  assert.equal(chosen.code, 0, chosen.stderr);
  assert.ok(existsSync(join(dir, 'assistants/shop/tests/inputs.jsonl')));
  const unknown = await agentestInProcess(['init', '--assistant', 'shpo'], { cwd: yaoApp() });
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /error\[FLAG_INVALID\]: --assistant shpo: no such assistant.*did you mean "shop".*casewriter, shop/,
  );
});

test('a refused --assistant writes nothing: no file, no folder, package.json as it was', async () => {
  const app = yaoApp();
  const before = readdirSync(app, { recursive: true }).sort();
  const packageJson = readFileSync(join(app, 'package.json'), 'utf8');
  const nosuch = await agentestInProcess(['init', '--assistant', 'nosuch'], { cwd: app });
  assert.equal(nosuch.code, 2);
  assert.equal(
    nosuch.stderr.split('\n')[0],
    'error[FLAG_INVALID]: --assistant nosuch: no such assistant; its assistants: casewriter, shop',
  );
  assert.doesNotMatch(nosuch.stderr, /\n\s+at /, 'no stack trace');
  assert.deepEqual(readdirSync(app, { recursive: true }).sort(), before);
  assert.equal(readFileSync(join(app, 'package.json'), 'utf8'), packageJson);

  const shop = join(app, 'assistants', 'shop');
  const other = await agentestInProcess(['init', '--assistant', 'casewriter'], { cwd: shop });
  assert.equal(other.code, 2);
  assert.match(
    other.stderr,
    /is the folder of assistant "shop"; to choose another, run agentest init in the app's root/,
  );
  assert.deepEqual(readdirSync(app, { recursive: true }).sort(), before);

  const outside = mkdtempSync(join(tmpdir(), 'agentest-init-'));
  const notApp = await agentestInProcess(['init', 'new-project', '--assistant', 'shop'], { cwd: outside });
  assert.equal(notApp.code, 2);
  assert.match(notApp.stderr, /--assistant shop: .*new-project is not a Yao app \(no app\.yao\); run agentest init in/);
  assert.deepEqual(readdirSync(outside), [], 'the project folder was not created');
});

test("inside an assistant's folder, init writes that assistant's suite there", async () => {
  const app = yaoApp();
  const init = await agentestInProcess(['init'], { cwd: join(app, 'assistants', 'shop') });
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /A suite for the Yao assistant "shop":/);
  assert.ok(existsSync(join(app, 'assistants/shop/tests/inputs.jsonl')));
  assert.ok(existsSync(join(app, 'assistants/shop/agentest.config.ts')));
});

test('when a config of its own is kept, the next command names the new suite', async () => {
  const app = yaoApp();
  writeFileSync(join(app, 'agentest.config.ts'), 'export default {};\n');
  const yao = await agentestInProcess(['init'], { cwd: app });
  assert.equal(yao.code, 0, yao.stderr);
  assert.match(
    yao.stdout,
    /Next:\n {2}npm install\n {2}npx agentest test -i assistants\/casewriter\/tests\/inputs\.jsonl\n$/,
  );

  const plain = fixture({ 'agentest.config.ts': 'export default {};\n' });
  const init = await agentestInProcess(['init'], { cwd: plain });
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /# agentest\.config\.ts was kept: add agents: \{ 'example\.agent': exampleAgent \}/);
  assert.match(init.stdout, /npx agentest test -i tests\/inputs\.jsonl -n example\.agent\n$/);
});

test('the workflow goes to the repository root and runs in the project folder; it is valid YAML', async () => {
  const repository = mkdtempSync(join(tmpdir(), 'agentest-init-repo-'));
  mkdirSync(join(repository, '.git'));
  writeFileSync(join(repository, 'package-lock.json'), '{}');
  const project = join(repository, 'packages', 'bot');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name": "bot"}');
  const init = await agentestInProcess(['init', 'packages/bot'], { cwd: repository });
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /created +\.\.\/\.\.\/\.github\/workflows\/agentest\.yml/);
  const workflow = parseYaml(readFileSync(join(repository, '.github/workflows/agentest.yml'), 'utf8'));
  const job = workflow.jobs.agentest;
  assert.deepEqual(job.defaults, { run: { 'working-directory': 'packages/bot' } });
  const steps = job.steps.map((step: { run?: string; uses?: string }) => step.run ?? step.uses);
  assert.deepEqual(steps, [
    'actions/checkout@v4',
    'actions/setup-node@v4',
    'npm ci',
    'npx agentest test',
    'actions/upload-artifact@v4',
  ]);
  assert.equal(job.steps.at(-1).with.path, 'packages/bot/agentest-report/');
  assert.match(init.stdout, /Next:\n {2}cd packages\/bot\n {2}npm install\n {2}npx agentest test\n$/);
});
