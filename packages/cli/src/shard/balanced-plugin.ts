import { definePlugin, type AgentestPlugin, type ShardLabel, type TestCase } from '@agentest/kernel';
import { matchesRunFilter } from '@agentest/kernel/results';
import { formatDuration } from '@agentest/report';
import { shardUnit } from './assign-shard.js';
import { packSuite } from './balanced-shards.js';

/** Recorded case times and where they come from, as the start of the header's note says. */
export interface DurationSource {
  durations: ReadonlyMap<string, number>;
  /** `the durations in earlier.jsonl`, `the durations in the run history (…)`. */
  from: string;
}

const PLUGIN_NAME = 'agentest:balanced-shard';

/** This shard's `include` for the plan, and the plugin that packs the suite before the include is asked. */
export interface BalancedShard {
  include: (testCase: TestCase) => boolean;
  plugin: AgentestPlugin;
}

/**
 * `--shard-mode balanced`: once the suite is loaded, and before anything runs, packs the cases the run
 * selects by their recorded times; the plan's `include` then takes this shard's part. The packing needs
 * the whole selection (a case no longer in the suite takes no room, a new one counts as the median), so
 * it is made here and not case by case. Every shard loads the same suite and the same durations, so each
 * computes the same packing on its own. The shard's label says where the durations came from.
 */
export function balancedShard(shard: ShardLabel, source: DurationSource): BalancedShard {
  let packed: ReadonlyMap<string, number> | undefined;
  const include = (testCase: TestCase) => {
    if (!packed) throw new Error(`${PLUGIN_NAME}: a case was selected before the suite was packed`);
    return packed.get(shardUnit(testCase)) === shard.index;
  };
  const plugin = definePlugin({
    name: PLUGIN_NAME,
    // After the taps that add or change cases (fuzz variants, script hooks), so the packing sees the final suite.
    enforce: 'post',
    apply({ hooks }) {
      hooks.suite.tapPromise(PLUGIN_NAME, async (suite, { plan }) => {
        const units = new Map<string, string[]>();
        for await (const testCase of suite.cases())
          if (matchesRunFilter(plan, testCase))
            units.set(shardUnit(testCase), [...(units.get(shardUnit(testCase)) ?? []), testCase.id]);
        const packing = packSuite([...units.keys()], unitDurations(units, source.durations), shard.total);
        packed = packing.shards;
        shard.split = `balanced by ${source.from}${unknownNote(packing, units.size)}`;
        return suite;
      });
    },
  });
  return { include, plugin };
}

/** A unit's time (a case with its `--fuzz` variants) is its cases' recorded times together, if any is recorded. */
function unitDurations(
  units: ReadonlyMap<string, string[]>,
  durations: ReadonlyMap<string, number>,
): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [unit, ids] of units) {
    const known = ids.filter((id) => durations.has(id));
    if (known.length)
      totals.set(
        unit,
        known.reduce((sum, id) => sum + durations.get(id)!, 0),
      );
  }
  return totals;
}

function unknownNote(packing: { unknown: number; median: number }, cases: number): string {
  if (!packing.unknown) return '';
  if (packing.unknown === cases) return '; no case has a recorded time, so they are spread by count';
  const each = packing.unknown === 1 ? 'it counts' : 'each counts';
  return `; ${packing.unknown} of ${cases} cases have no recorded time, ${each} as the median ${formatDuration(packing.median)}`;
}
