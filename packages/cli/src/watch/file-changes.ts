import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Changes closer together than this are one change: an editor's save is often several writes. */
const DEBOUNCE_MS = 100;

/** Folders whose files a run writes or that hold no source: a change there never starts a run. */
const IGNORED_FOLDERS = new Set(['node_modules', '__snapshots__', '__cassettes__']);

/** Which of a watched folder's entries count, and whether a new folder among them is watched too. */
interface Folder {
  wants(path: string): boolean;
  root?: string;
}

/**
 * Watches folders and hands on the changed files once they settle, as absolute paths. Dot folders and
 * files (`.git`, `.agentest`), `node_modules`, snapshots, cassettes and the files the run itself writes are
 * left out, so a run's own reports never start the next one.
 *
 * Every folder is watched on its own, never a file and never `recursive`: many editors (vim, JetBrains' safe
 * write, formatters) save by writing a temporary file and renaming it over the original, and a watch on the
 * file (which Node 20's recursive watch on Linux sets on each file) then follows the replaced file, so the
 * second save goes unseen. A folder's watch sees every save. A file that comes and goes within one save
 * (the editor's temporary file) is no change.
 */
export class FileChanges {
  private readonly folders = new Map<string, FSWatcher>();
  /** The files and folders that exist, so that a vanished one is a change and a temporary one is not. */
  private readonly known = new Set<string>();
  private readonly ignored = new Set<string>();
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;

  /** `files` outside every root (a base config in a shared folder) are watched through their folders. */
  constructor(
    roots: readonly string[],
    private readonly onChange: (files: ReadonlySet<string>) => void,
    files: readonly string[] = [],
  ) {
    const trees = outermost(roots);
    for (const root of trees) this.watchTree(root, root);
    const outside = new Set(files.map((file) => resolve(file)).filter((file) => !trees.some((r) => inside(r, file))));
    for (const file of outside) {
      if (existsSync(file)) this.known.add(file);
      this.watchFolder(dirname(file), { wants: (path) => outside.has(path) });
    }
  }

  /** Files the run writes (its reports): their changes are the run's own doing. */
  ignore(paths: Iterable<string>): void {
    for (const path of paths) this.ignored.add(resolve(path));
  }

  close(): void {
    clearTimeout(this.timer);
    for (const watcher of this.folders.values()) watcher.close();
    this.folders.clear();
  }

  /** A folder and those inside it, each watched before it is listed so that nothing created meanwhile is missed. */
  private watchTree(dir: string, root: string): void {
    if (!this.watchFolder(dir, { wants: (path) => !isIgnored(relative(root, path)), root })) return;
    this.known.add(dir);
    for (const entry of entries(dir)) {
      const path = join(dir, entry.name);
      if (isIgnored(relative(root, path))) continue;
      if (entry.isDirectory()) this.watchTree(path, root);
      else this.known.add(path);
    }
  }

  private watchFolder(dir: string, folder: Folder): boolean {
    if (this.folders.has(dir)) return false;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => name && this.seen(join(dir, name.toString()), folder));
    } catch {
      return false; // gone before it could be watched: its parent's watch reports it
    }
    // A folder that goes away (deleted, unmounted) ends its watch; the others carry on.
    watcher.on('error', () => this.unwatch(dir));
    this.folders.set(dir, watcher);
    return true;
  }

  /** Stops watching a folder that went away, and the folders inside it. */
  private unwatch(dir: string): void {
    for (const [path, watcher] of this.folders)
      if (path === dir || path.startsWith(`${dir}${sep}`)) {
        watcher.close();
        this.folders.delete(path);
      }
  }

  private seen(path: string, folder: Folder): void {
    if (this.ignored.has(path) || !folder.wants(path)) return;
    if (folder.root !== undefined) {
      if (isFolder(path)) this.watchTree(path, folder.root);
      else if (this.folders.has(path)) this.unwatch(path);
    }
    this.pending.add(path);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.settle(), DEBOUNCE_MS);
  }

  private settle(): void {
    const changed = new Set<string>();
    for (const path of this.pending) {
      if (existsSync(path)) this.known.add(path);
      else if (!this.known.delete(path)) continue; // created and removed within one save
      changed.add(path);
    }
    this.pending = new Set();
    if (changed.size) this.onChange(changed);
  }
}

function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isIgnored(path: string): boolean {
  return path.split(sep).some((part) => part.startsWith('.') || IGNORED_FOLDERS.has(part));
}

/** The roots, without those inside another root (each change is then seen once). */
function outermost(roots: readonly string[]): string[] {
  const unique = [...new Set(roots.map((root) => resolve(root)))];
  return unique.filter((root) => !unique.some((other) => other !== root && inside(other, root)));
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return !rel.startsWith('..') && !isAbsolute(rel);
}
