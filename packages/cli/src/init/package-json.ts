import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';

/** What init does to package.json: add the dependency, find it there already, or find no package.json. */
export interface DependencyChange {
  kind: 'added' | 'present' | 'none';
  /** The range in package.json (`^0.1.0`), absent without one. */
  range?: string;
  /** Writes the change; nothing for `present` and `none`. */
  write(): Promise<void>;
}

const nothing = async () => {};

/**
 * Plans adding `name@range` to the devDependencies of `<dir>/package.json`, as `npm i -D` would list it
 * (keys sorted, the file's indentation kept). Already a dependency of any kind: left alone.
 */
export async function addDevDependency(dir: string, name: string, range: string): Promise<DependencyChange> {
  const file = join(dir, 'package.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { kind: 'none', write: nothing };
  }
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new AgentestError(
      'INPUT_INVALID',
      `${file}: not valid JSON, so init cannot add ${name}: ${errorMessage(error)}`,
      {
        where: file,
        hint: 'Correct the JSON of package.json, then run agentest init again.',
      },
    );
  }
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const existing = (manifest[field] as Record<string, string> | undefined)?.[name];
    if (existing) return { kind: 'present', range: existing, write: nothing };
  }
  const devDependencies = { ...(manifest.devDependencies as Record<string, string> | undefined), [name]: range };
  manifest.devDependencies = Object.fromEntries(Object.entries(devDependencies).sort(([a], [b]) => a.localeCompare(b)));
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const updated = JSON.stringify(manifest, null, indent).replace(/\n/g, eol) + eol;
  return { kind: 'added', range, write: () => writeFile(file, updated) };
}
