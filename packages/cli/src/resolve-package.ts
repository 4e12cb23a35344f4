import { createRequire } from 'node:module';
import { join } from 'node:path';
import { errorMessage } from '@agentest/kernel';

export type PackageResolution = { file: string } | { missing: true } | { problem: string };

/**
 * The entry file of a package named in the config, found as Node finds a package from the config
 * file's folder (its `node_modules`, then each parent's), not from wherever agentest is installed:
 * a reporter installed in the user's project loads even when agentest runs from elsewhere.
 */
export function resolvePackageFrom(dir: string, name: string): PackageResolution {
  try {
    return { file: createRequire(join(dir, 'package.json')).resolve(name) };
  } catch (error) {
    const message = errorMessage(error).split('\n')[0]!;
    // "Cannot find module 'name'" is a package that is not installed; any other failure (an exports
    // map without an entry, a `main` that does not exist) is a broken package, and says so.
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND' && message.includes(`'${name}'`))
      return { missing: true };
    return { problem: message };
  }
}
