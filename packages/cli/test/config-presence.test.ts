import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import { mayFindConfig } from '../src/config/config-presence.js';
import { SEARCH_PLACES } from '../src/config/load-config.js';
import { fixture } from './helpers.js';

// A run without a config skips cosmiconfig (and its ~40 modules) only when `mayFindConfig` says no config
// can be found. That must never hide a config cosmiconfig would find: each layout is searched by both,
// from the folder `from`, with the working directory at the fixture's root (cosmiconfig's meta config is
// looked for there).

const PACKAGE = '{"name": "fixture", "private": true}\n';

const LAYOUTS: { name: string; files: Record<string, string>; from?: string; skips: boolean }[] = [
  { name: 'a package.json without the key', files: {}, skips: true },
  { name: 'a package.json whose key is null', files: { 'package.json': '{"agentest": null}' }, skips: true },
  {
    name: 'a package.json with the key',
    files: { 'package.json': '{"agentest": {"test": {"runs": 2}}}' },
    skips: false,
  },
  { name: 'a package.json that is not JSON', files: { 'package.json': '{"agentest": ' }, skips: false },
  { name: 'a package.json holding an array', files: { 'package.json': '[1]' }, skips: true },
  { name: 'a package.json holding a string', files: { 'package.json': '"agentest"' }, skips: false },
  { name: 'an .agentestrc.json', files: { '.agentestrc.json': '{"test": {"runs": 2}}' }, skips: false },
  { name: 'an empty .agentestrc', files: { '.agentestrc': '' }, skips: false },
  { name: 'agentest.config.yaml', files: { 'agentest.config.yaml': 'test:\n  runs: 2\n' }, skips: false },
  {
    name: 'a config in the parent of a folder without package.json',
    files: { 'agentest.config.json': '{"test": {"runs": 2}}', 'suite/cases.jsonl': '' },
    from: 'suite',
    skips: false,
  },
  {
    name: 'a config above the nearest package.json',
    files: { 'agentest.config.json': '{"test": {"runs": 2}}', 'suite/package.json': PACKAGE },
    from: 'suite',
    skips: true,
  },
  {
    name: 'a config beside a package.yaml',
    files: { 'agentest.config.json': '{"test": {"runs": 2}}', 'suite/package.yaml': 'name: suite\n' },
    from: 'suite',
    skips: true,
  },
  { name: "cosmiconfig's meta config", files: { '.config/config.json': '{"searchPlaces": ["x.json"]}' }, skips: false },
  { name: 'a package.json naming a meta config', files: { 'package.json': '{"cosmiconfig": {}}' }, skips: false },
];

for (const layout of LAYOUTS) {
  test(`config search: ${layout.name}`, async () => {
    const root = fixture({ 'package.json': PACKAGE, ...layout.files });
    const from = join(root, layout.from ?? '.');
    const before = process.cwd();
    process.chdir(root);
    try {
      const may = mayFindConfig(from, 'agentest', SEARCH_PLACES);
      assert.equal(may, !layout.skips);
      // The search is what is compared; no layout holds a module config, so its loaders only need to exist.
      const unused = () => ({});
      const search = async () =>
        cosmiconfig('agentest', {
          searchStrategy: 'project',
          searchPlaces: SEARCH_PLACES,
          loaders: { '.ts': unused, '.mts': unused, '.cts': unused },
          cache: false,
        }).search(from);
      const found = await search().catch((error: unknown) => ({ error }));
      // Whatever cosmiconfig finds (or fails on), the run asks it.
      if (found) assert.equal(may, true, `cosmiconfig found ${JSON.stringify(found)}`);
    } finally {
      process.chdir(before);
    }
  });
}
