import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
// The runtime sits next to this file: `.ts` when run from source, `.js` once built.
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const RUNTIME = fileURLToPath(new URL(`./runtime/sandbox-runtime${EXTENSION}`, import.meta.url));

/**
 * Module aliases for test-file bundles: `@agentest/test`, `@agentest/test/kit` (and `agentest-kit`, so
 * agentest-kit test files run unchanged) are the sandbox runtime; `@agentest/expect` is pinned to the file this process
 * resolves; jsonpath-plus is its browser build, which needs no Node built-ins.
 */
export function sandboxAliases(): Record<string, string> {
  const jsonPath = require.resolve('jsonpath-plus', { paths: [dirname(require.resolve('@agentest/expect'))] });
  return {
    '@agentest/test': RUNTIME,
    '@agentest/test/kit': RUNTIME,
    'agentest-kit': RUNTIME,
    '@agentest/expect': require.resolve('@agentest/expect'),
    'jsonpath-plus': join(dirname(jsonPath), 'index-browser-esm.js'),
  };
}

/**
 * Entry files that import one test file each, one per directory. The sandbox bundles an entry with
 * the script files beside it; an entry of our own keeps a test file's neighbours (other test files
 * among them) out of its bundle, so no registration leaks from one file into another.
 */
export class SandboxEntries {
  private root?: string;
  private readonly entries = new Map<string, string>();

  entryFor(testFile: string): string {
    let entry = this.entries.get(testFile);
    if (!entry) {
      this.root ??= mkdtempSync(join(tmpdir(), 'agentest-kit-'));
      const dir = join(this.root, String(this.entries.size));
      entry = join(dir, 'entry.ts');
      mkdirSync(dir, { recursive: true });
      writeFileSync(entry, `import ${JSON.stringify(RUNTIME)};\nimport ${JSON.stringify(testFile)};\n`);
      this.entries.set(testFile, entry);
    }
    return entry;
  }

  dispose(): void {
    if (this.root) rmSync(this.root, { recursive: true, force: true });
    this.root = undefined;
    this.entries.clear();
  }
}
