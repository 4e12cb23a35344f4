import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputShapeError } from './input-error.js';

/** The largest file a `file://` part may attach by default: 20 MB. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/**
 * Which files `file://` content parts may read. A JSONL file is data, not code: a line must not be
 * able to send `/proc/self/environ` or `../../../etc/shadow` to a model. Files are read only from
 * the suite's folder, the app root above it, and the folders a config lists.
 */
export interface AttachmentPolicy {
  /** Where relative `file://` paths start: the JSONL file's folder. */
  baseDir: string;
  /** Folders (real paths, symlinks resolved) inside which files may be read. */
  roots: readonly string[];
  maxBytes: number;
}

/** A file a case attaches, as the models take it: base64 (a string, so the declarations need no Node types). */
export interface Attachment {
  path: string;
  base64: string;
}

/** What marks a Yao app root. */
const APP_MARKERS = ['app.yao', 'app.json', 'app.jsonc'];

/**
 * The policy for a suite whose file is in `baseDir`: that folder, the nearest Yao app root above it
 * (the folder holding `app.yao`, `app.json` or `app.jsonc`), and `allow`.
 */
export function attachmentPolicy(
  baseDir: string,
  allow: readonly string[] = [],
  maxBytes = DEFAULT_MAX_ATTACHMENT_BYTES,
): AttachmentPolicy {
  const appRoot = findAppRoot(baseDir);
  const roots = [baseDir, ...(appRoot ? [appRoot] : []), ...allow].map((dir) => realOrResolved(resolve(baseDir, dir)));
  return { baseDir, roots, maxBytes };
}

/**
 * Reads the file a `file://` reference names (absolute as given, relative from `baseDir`) after
 * resolving symlinks and checking it lies inside a root and is no larger than the cap; the size is
 * checked with `stat`, before a byte is read.
 */
export function readAttachment(reference: string, raw: string, policy: AttachmentPolicy, where: string): Attachment {
  if (!raw) throw new InputShapeError(`${where}: "${reference}" names no file`);
  const path = isAbsolute(raw) ? raw : resolve(policy.baseDir, raw);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new InputShapeError(
      `${where}: file not found: ${path} (from "${reference}"; relative paths start at ${policy.baseDir})`,
    );
  }
  if (!policy.roots.some((root) => isInside(real, root))) {
    throw new InputShapeError(
      `${where}: ${real} (from "${reference}") is outside the suite's folder and the app root; attachments are read only from ${policy.roots.join(', ')}`,
      "move the file there, or list its folder in the config's files.allow",
    );
  }
  const info = statSync(real);
  if (!info.isFile()) throw new InputShapeError(`${where}: ${real} is not a file (from "${reference}")`);
  if (info.size > policy.maxBytes) {
    throw new InputShapeError(
      `${where}: ${real} is ${sizeText(info.size)}, over the limit of ${sizeText(policy.maxBytes)} for attachments`,
      'use a smaller file, or raise files.maxBytes in the config',
    );
  }
  return { path: real, base64: readFileSync(real).toString('base64') };
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function findAppRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (APP_MARKERS.some((marker) => existsSync(join(dir, marker)))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [amount, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / 1024 / 1024, 'MB'];
  return `${amount.toFixed(1).replace(/\.0$/, '')} ${unit}`;
}
