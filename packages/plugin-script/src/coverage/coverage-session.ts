import type { CoverageMap } from 'istanbul-lib-coverage';
import type { ScriptCoverage } from './coverage-protocol.js';
import type { BundleSource } from './to-istanbul.js';

/** What can hand over the coverage its threads counted: a script pool. */
export interface CoverageSource {
  takeCoverage(): Promise<ScriptCoverage[]>;
}

/**
 * The coverage of one run, kept for the whole process while it lasts: the script pools are shared
 * by every plugin that runs user code (scripts, hooks, `test()` files), so they look here to learn
 * whether to count. It remembers every bundle compiled meanwhile (code and source map, to map the
 * counts back), and every pool that ran a task for it (to take their counts at the end).
 */
export class CoverageSession {
  private readonly bundles = new Map<string, BundleSource>();
  private readonly sources = new Set<CoverageSource>();
  private readonly scripts: ScriptCoverage[] = [];

  remember(bundle: { filename: string; code: string; map?: string }): void {
    this.bundles.set(bundle.filename, { code: bundle.code, ...(bundle.map ? { map: bundle.map } : {}) });
  }

  attach(source: CoverageSource): void {
    this.sources.add(source);
  }

  /** Forgets a source (a pool that closes); true when it had run code for this run. */
  detach(source: CoverageSource): boolean {
    return this.sources.delete(source);
  }

  /** Counts a source hands over on its own (a pool that closes before the run ends). */
  add(scripts: readonly ScriptCoverage[]): void {
    this.scripts.push(...scripts);
  }

  /** Takes the counts of every pool that ran code for this run and maps them onto the source files `keep` accepts. */
  async collect(keep: (file: string) => boolean): Promise<CoverageMap> {
    const taken = await Promise.all([...this.sources].map((source) => source.takeCoverage()));
    for (const scripts of taken) this.add(scripts);
    // istanbul and v8-to-istanbul load when a run reports coverage, not with every script pool.
    const { toIstanbul } = await import('./to-istanbul.js');
    return toIstanbul(this.scripts, this.bundles, keep);
  }
}

let active: CoverageSession | undefined;

/** Starts counting for a run; the pools ask `activeCoverage()` before each task. */
export function startCoverage(): CoverageSession {
  active = new CoverageSession();
  return active;
}

export function activeCoverage(): CoverageSession | undefined {
  return active;
}

export function stopCoverage(session: CoverageSession): void {
  if (active === session) active = undefined;
}
