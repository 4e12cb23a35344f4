import { open, stat, unlink } from 'node:fs/promises';

/** What a run writes; `outputs` are absolute paths. */
export interface PlannedOutputs {
  outputs: string[];
}

export interface ClaimedOutputs<T> {
  planned: T;
  /** Removes the claimed files that nothing wrote into (a run that stopped before its reports). */
  release(): Promise<void>;
}

/** More runs than this in one second in one folder is a loop, not a workload. */
const MAX_SUFFIX = 1000;

/**
 * Default output names carry a timestamp to the second (`output-20241217100000.jsonl`, as Yao), so
 * two runs started in the same second would share them and the first run's results would be lost.
 * Each run claims the default files it will write by creating them exclusively (`wx`); when one is
 * taken, the run plans again under the next free name (`output-20241217100000-2.jsonl`). Files
 * given with `-o` or a config `output` are the user's choice and are not claimed.
 */
export async function claimDefaultOutputs<T extends PlannedOutputs>(
  base: string,
  plan: (stem: string) => Promise<T>,
): Promise<ClaimedOutputs<T>> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const stem = n === 1 ? base : `${base}-${n}`;
    const planned = await plan(stem);
    const claimed = await claim(planned.outputs.filter((path) => path.startsWith(`${stem}.`)));
    if (claimed) return { planned, release: () => releaseEmpty(claimed) };
  }
  throw new Error(`${base}: more than ${MAX_SUFFIX} runs wrote default outputs under this name`);
}

/** Creates every path exclusively; `undefined` (and nothing left behind) when one already exists. */
async function claim(paths: readonly string[]): Promise<string[] | undefined> {
  const made: string[] = [];
  for (const path of paths) {
    try {
      await (await open(path, 'wx')).close();
      made.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') continue; // the reporter will say why it cannot write
      await Promise.all(made.map((p) => unlink(p).catch(() => {})));
      return undefined;
    }
  }
  return made;
}

async function releaseEmpty(paths: readonly string[]): Promise<void> {
  await Promise.all(
    paths.map(async (path) => {
      const info = await stat(path).catch(() => undefined);
      if (info?.size === 0) await unlink(path).catch(() => {});
    }),
  );
}
