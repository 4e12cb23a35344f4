import { watch, type FSWatcher } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Changes closer together than this are one change: an editor's save is often several writes. */
const DEBOUNCE_MS = 100;

/** Folders whose files a run writes or that hold no source: a change there never starts a run. */
const IGNORED_FOLDERS = new Set(['node_modules', '__snapshots__', '__cassettes__']);

/**
 * Watches folders recursively (`node:fs` watch: recursive works on Linux from Node 20) and hands on the
 * changed files once they settle, as absolute paths. Dot folders and files (`.git`, `.agentest`),
 * `node_modules`, snapshots, cassettes and the files the run itself writes are left out, so a run's own
 * reports never start the next one.
 */
export class FileChanges {
  private readonly watchers: FSWatcher[] = [];
  private readonly ignored = new Set<string>();
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;

  /** `files` are watched one by one when no root holds them (a base config in a shared folder). */
  constructor(
    roots: readonly string[],
    private readonly onChange: (files: ReadonlySet<string>) => void,
    files: readonly string[] = [],
  ) {
    const folders = outermost(roots);
    for (const root of folders) {
      this.add(
        watch(root, { recursive: true }, (_event, name) => name && this.seen(join(root, name.toString()), root)),
      );
    }
    for (const file of new Set(files.map((f) => resolve(f)))) {
      if (folders.some((root) => inside(root, file))) continue;
      this.add(watch(file, () => this.seen(file, dirname(file))));
    }
  }

  private add(watcher: FSWatcher): void {
    // A folder or file that goes away (deleted, unmounted) ends its watch; the others carry on.
    watcher.on('error', () => watcher.close());
    this.watchers.push(watcher);
  }

  /** Files the run writes (its reports): their changes are the run's own doing. */
  ignore(paths: Iterable<string>): void {
    for (const path of paths) this.ignored.add(resolve(path));
  }

  close(): void {
    clearTimeout(this.timer);
    for (const watcher of this.watchers) watcher.close();
  }

  private seen(path: string, root: string): void {
    if (this.ignored.has(path) || isIgnored(relative(root, path))) return;
    this.pending.add(path);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const files = this.pending;
      this.pending = new Set();
      this.onChange(files);
    }, DEBOUNCE_MS);
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
