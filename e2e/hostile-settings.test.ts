/**
 * Hostile and broken settings through the real CLI: the --ctx file, the config file, plugins, reporters,
 * agents and flags. Each must stop the run before any agent is called with exit code 2 and one precise
 * message naming the file, key or flag at fault and what to do, and never a stack trace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cases, describeScenarios, ok, type Scenario } from './helpers/scenarios.js';
import { writeCases, writeJson } from './helpers/workspace.js';

const SCENARIOS: Scenario[] = [
  {
    name: 'a --ctx file that does not exist',
    setup: (dir) => [...cases(dir, [ok()]), '--ctx', 'missing.json'],
    code: 'CONTEXT_FILE_INVALID',
    says: [/missing\.json/, /file not found/],
  },
  {
    name: 'a --ctx file that is not JSON',
    setup: (dir) => (
      writeFileSync(join(dir, 'ctx.json'), '{ locale: en }'),
      [...cases(dir, [ok()]), '--ctx', 'ctx.json']
    ),
    code: 'CONTEXT_FILE_INVALID',
    says: [/ctx\.json/, /not valid JSON/],
  },
  {
    name: 'a --ctx field of the wrong type',
    setup: (dir) => (
      writeJson(dir, 'ctx.json', { authorized: { remember_me: 'yes' } }),
      [...cases(dir, [ok()]), '--ctx', 'ctx.json']
    ),
    code: 'CONTEXT_FILE_INVALID',
    says: [/ctx\.json/, /authorized\.remember_me/],
  },
  {
    name: 'a --ctx field with a typo',
    setup: (dir) => (writeJson(dir, 'ctx.json', { locle: 'en' }), [...cases(dir, [ok()]), '--ctx', 'ctx.json']),
    code: 'CONTEXT_FILE_INVALID',
    says: [/ctx\.json/, /unknown field "locle"/, /locale/],
  },
  {
    name: 'a config file with a syntax error',
    setup: (dir) => (
      writeFileSync(join(dir, 'agentest.config.json'), '{"test": {"parallel": 2,}}'),
      cases(dir, [ok()])
    ),
    code: 'CONFIG_LOAD_FAILED',
    says: [/agentest\.config\.json/],
  },
  {
    name: 'a config file that throws',
    setup: (dir) => (
      writeFileSync(join(dir, 'agentest.config.mjs'), 'throw new Error("boom in config")\n'),
      cases(dir, [ok()])
    ),
    code: 'CONFIG_LOAD_FAILED',
    says: [/agentest\.config\.mjs/, /boom in config/],
  },
  {
    name: 'a config key with a typo',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { tset: { parallel: 2 } }), cases(dir, [ok()])),
    code: 'CONFIG_INVALID',
    says: [/agentest\.config\.json: tset/, /did you mean "test"/],
  },
  {
    name: 'a config value of the wrong type',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { test: { parallel: 'many' } }), cases(dir, [ok()])),
    code: 'CONFIG_INVALID',
    says: [/agentest\.config\.json: test\.parallel/],
  },
  {
    name: 'a plugin package that is not installed',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { plugins: ['agentest-plugin-nope'] }), cases(dir, [ok()])),
    code: 'PLUGIN_INVALID',
    says: [
      /plugins\[0\]/,
      /"agentest-plugin-nope" is not installed where the config is/,
      /npm i -D agentest-plugin-nope/,
    ],
  },
  {
    name: 'an uncalled plugin factory',
    setup: (dir) => (
      writeFileSync(join(dir, 'agentest.config.mjs'), 'export default { plugins: [function myPlugin() {}] }\n'),
      cases(dir, [ok()])
    ),
    code: 'PLUGIN_INVALID',
    says: [/plugins\[0\]/, /call the plugin factory/],
  },
  {
    name: 'an unknown reporter name',
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { reporters: ['htlm'] }), cases(dir, [ok()])),
    code: 'REPORTER_NOT_FOUND',
    says: [/reporters\[0\]/, /unknown reporter "htlm"/, /did you mean/],
  },
  {
    name: 'a reporter path that does not exist',
    setup: (dir) => (
      writeJson(dir, 'agentest.config.json', { reporters: ['./reporters/missing.mjs'] }),
      cases(dir, [ok()])
    ),
    code: 'REPORTER_NOT_FOUND',
    says: [/missing\.mjs/, /not found/],
  },
  {
    name: 'a reporter module with a syntax error',
    setup: (dir) => {
      mkdirSync(join(dir, 'reporters'), { recursive: true });
      writeFileSync(join(dir, 'reporters', 'broken.mjs'), 'export default {{\n');
      writeJson(dir, 'agentest.config.json', { reporters: ['./reporters/broken.mjs'] });
      return cases(dir, [ok()]);
    },
    code: 'REPORTER_NOT_FOUND',
    says: [/broken\.mjs/, /failed to load/],
  },
  {
    name: 'an unknown agent',
    setup: (dir) => (writeCases(dir, 'cases.jsonl', [ok()]), ['-i', 'cases.jsonl', '-n', 'no.such.agent']),
    code: 'AGENT_NOT_FOUND',
    says: [/no\.such\.agent/, /-n/],
  },
  ...(
    [
      ['--runs', '0'],
      ['--parallel', 'lots'],
      ['--timeout', '5 minutes'],
      ['--run', '(unclosed'],
      ['--threshold', 'pass_rate'],
      ['--timeout', '30'],
    ] as const
  ).map(([flag, value]): Scenario => ({
    name: `flag ${flag} ${value}`,
    setup: (dir) => [...cases(dir, [ok()]), flag, value],
    code: 'FLAG_INVALID',
    says: [new RegExp(flag.replace(/-/g, '\\-'))],
  })),
  {
    name: 'a --threshold rate over 100%, which no run can meet',
    setup: (dir) => [...cases(dir, [ok()]), '--threshold', 'pass_rate=101%'],
    code: 'FLAG_INVALID',
    says: [/--threshold: pass_rate is a share from 0 to 1 \(at most 100%\), got 1\.01 \(101\.0%\)/],
  },
  {
    name: "a config's negative rate threshold",
    setup: (dir) => (writeJson(dir, 'agentest.config.json', { thresholds: { pass_rate: -0.5 } }), cases(dir, [ok()])),
    code: 'CONFIG_INVALID',
    says: [/thresholds\.pass_rate: pass_rate is a share from 0 to 1 \(at least 0%\), got -0\.5/],
  },
  {
    name: 'an output extension agentest cannot write',
    setup: (dir) => [...cases(dir, [ok()]), '-o', 'report.pdf'],
    code: 'FLAG_INVALID',
    says: [/-o/, /\.pdf/, /\.html/],
  },
];

describeScenarios('hostile and broken settings: exit 2, one precise message, no stack trace', SCENARIOS);
