import { median } from '@agentest/compare';

/**
 * `--shard-mode balanced`: cases packed into `total` shards by their duration, longest first, each into
 * the shard with the least work so far (greedy longest-processing-time), so the shards finish together;
 * between shards with as much work, the one with fewer cases (cases of no recorded time still spread).
 * Ties go by id and then to the lowest shard, so every machine reading the same durations computes the
 * same packing. Returns each case id's shard (1-based).
 */
export function packByDuration(durations: ReadonlyMap<string, number>, total: number): Map<string, number> {
  const shards = Array.from({ length: total }, () => ({ load: 0, cases: 0 }));
  const packed = new Map<string, number>();
  const longestFirst = [...durations].sort(([a, da], [b, db]) => db - da || (a < b ? -1 : a > b ? 1 : 0));
  for (const [id, duration] of longestFirst) {
    let lightest = 0;
    shards.forEach((shard, i) => {
      const best = shards[lightest]!;
      if (shard.load < best.load || (shard.load === best.load && shard.cases < best.cases)) lightest = i;
    });
    shards[lightest]!.load += duration;
    shards[lightest]!.cases++;
    packed.set(id, lightest + 1);
  }
  return packed;
}

/** The packing of a suite's cases, and how many of them had no recorded time. */
export interface SuitePacking {
  shards: Map<string, number>;
  unknown: number;
  /** The time counted for each case of no recorded time: the median of the suite's known ones (0 if none). */
  median: number;
}

/**
 * Packs the cases the run selects (`ids`) by their recorded `durations`: a case recorded before but
 * no longer in the suite takes no room, and a case of no recorded time (added since) counts as the
 * median of the others, so new cases spread over the shards like typical ones.
 */
export function packSuite(ids: readonly string[], durations: ReadonlyMap<string, number>, total: number): SuitePacking {
  const known = ids.flatMap((id) => (durations.has(id) ? [durations.get(id)!] : []));
  const typical = known.length ? median(known) : 0;
  const timed = new Map(ids.map((id) => [id, durations.get(id) ?? typical]));
  return { shards: packByDuration(timed, total), unknown: ids.length - known.length, median: typical };
}
