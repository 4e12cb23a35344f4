import { AgentestError, type AgentestPlugin, type RunEvent, type RunPlan, type SummaryEvent } from '@agentest/kernel';
import { isCi } from '@agentest/common';
import { SNAPSHOT_ASSERTION_TYPE, snapshotChecker, validateSnapshotAssertion } from './snapshot-assertion.js';
import { SnapshotStore, type SnapshotReport } from './snapshot-store.js';
import { attachSnapshotStore } from './store-registry.js';

export const PLUGIN_NAME = 'agentest:snapshot';

/** Before every reporter, so each of them sees the summary's `snapshots`. */
const BEFORE_REPORTERS = -100;

/** The run plan option the command line sets: `{ update: --update, ci: CI is set }`. */
export const PLAN_OPTION = 'snapshots';

export interface SnapshotPluginOptions {
  /** Replace snapshots that differ and remove obsolete ones; by default the plan's `options.snapshots.update`. */
  update?: boolean;
  /** A missing snapshot fails instead of being written; by default the plan's `options.snapshots.ci`, else `CI`. */
  ci?: boolean;
  /** Where relative suite paths start; by default the working directory. */
  cwd?: string;
  /** Where the obsolete entries are printed after the run; by default `process.stderr` (the CLI passes its own). */
  stderr?: { write(text: string): unknown };
}

declare module '@agentest/kernel' {
  interface Summary {
    /** Snapshots written, updated, and obsolete (in a file, produced by no case of a full run). */
    snapshots?: SnapshotReport;
  }
}

/**
 * The `snapshot` assertion type. Snapshots live in `__snapshots__/<suite>.snap.jsonl` beside each
 * suite; the files are read when first needed and written once, at teardown (docs/snapshots.md).
 */
export default function snapshotPlugin(options: SnapshotPluginOptions = {}): AgentestPlugin {
  checkOptions(options);
  let store: SnapshotStore | undefined;
  let plan: RunPlan | undefined;
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      hooks.setup.tap(PLUGIN_NAME, (runPlan) => {
        plan = runPlan;
        const asked = (runPlan.options?.[PLAN_OPTION] ?? {}) as { update?: unknown; ci?: unknown };
        store = new SnapshotStore({
          update: options.update ?? asked.update === true,
          ci: options.ci ?? (typeof asked.ci === 'boolean' ? asked.ci : isCi()),
          cwd: options.cwd ?? process.cwd(),
        });
        attachSnapshotStore(runPlan, store);
      });
      hooks.assert.for(SNAPSHOT_ASSERTION_TYPE).tapPromise(
        { name: PLUGIN_NAME, validate: validateSnapshotAssertion },
        snapshotChecker(() => store),
      );
      // Synchronous but for the summary: a promise per event would cost every case of a fast suite one.
      const onEvent = (event: RunEvent): void | Promise<void> => {
        if (!store) return;
        if (event.type === 'result') {
          const evaluated = event.status === 'passed' || event.status === 'failed';
          store.caseEnded(event.source.file, event.id, evaluated ? 'evaluated' : 'not-evaluated');
        } else if (event.type === 'summary')
          return finishSnapshots(store, plan, event, options.stderr ?? process.stderr);
      };
      hooks.report.tapPromise({ name: PLUGIN_NAME, stage: BEFORE_REPORTERS, deliver: onEvent }, async (event) =>
        onEvent(event),
      );
      hooks.teardown.tapPromise(PLUGIN_NAME, async () => {
        await store?.flush();
      });
    },
  };
}

/** The run is over: the store's report goes on the summary, and obsolete entries are named. */
async function finishSnapshots(
  store: SnapshotStore,
  plan: RunPlan | undefined,
  event: SummaryEvent,
  stderr: NonNullable<SnapshotPluginOptions['stderr']>,
): Promise<void> {
  // Obsolete entries are only known when every case ran.
  const full = plan?.filter === undefined && !event.interrupted && !event.halted;
  const report = await store.finish(full);
  if (report.written || report.updated || report.obsolete.length) event.snapshots = report;
  if (report.obsolete.length) stderr.write(obsoleteNotice(report));
}

function obsoleteNotice({ obsolete, removed }: SnapshotReport): string {
  const head = removed
    ? `Snapshots: removed ${removed} obsolete entr${removed === 1 ? 'y' : 'ies'}:`
    : `Snapshots: ${obsolete.length} obsolete entr${obsolete.length === 1 ? 'y' : 'ies'} (run with --update to remove):`;
  return `${head}\n${obsolete.map((line) => `  ${line}\n`).join('')}`;
}

function checkOptions(options: SnapshotPluginOptions): void {
  const known = new Set(['update', 'ci', 'cwd', 'stderr']);
  const extra = Object.keys(options ?? {}).find((key) => !known.has(key));
  if (extra)
    throw new AgentestError(
      'PLUGIN_INVALID',
      `${PLUGIN_NAME}: unknown option "${extra}" (options: update, ci, cwd, stderr)`,
      {
        where: PLUGIN_NAME,
      },
    );
}
