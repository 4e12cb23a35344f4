import { rm, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AgentestError } from '@agentest/kernel';
import { errorMessage } from '@agentest/kernel/errors';

const TS = new Set(['.ts', '.mts', '.cts']);

/**
 * Imports a user module by path. TypeScript is bundled with esbuild first (local imports inlined,
 * packages external) into a temporary `.mjs` beside the file, so it runs on a plain Node.
 */
export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  if (!TS.has(extname(file))) return import(pathToFileURL(file).href);
  const code = await bundleTypeScript(file);
  const tmp = `${file}.${process.pid}.${Date.now()}.mjs`;
  await writeFile(tmp, code);
  try {
    return await import(pathToFileURL(tmp).href);
  } finally {
    await rm(tmp, { force: true });
  }
}

export async function bundleTypeScript(file: string): Promise<string> {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      entryPoints: [file],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } }[] })
      .errors?.[0];
    const at = first?.location ? `${first.location.file}:${first.location.line}:${first.location.column}` : file;
    throw new AgentestError('CONFIG_LOAD_FAILED', `${at}: ${first?.text ?? errorMessage(error)}`, {
      where: at,
      cause: error,
    });
  }
}

/**
 * A package's `import()` that tells a missing package apart from a package that fails while loading.
 * `load` is `() => import('<the package>')`, written out so bundlers see which module it is.
 */
export async function importPackage(
  load: () => Promise<object>,
): Promise<{ module?: Record<string, unknown>; missing?: string }> {
  try {
    return { module: (await load()) as Record<string, unknown> };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      return { missing: errorMessage(error).split('\n')[0] };
    }
    throw error;
  }
}
