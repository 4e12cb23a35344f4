import type { HeapProfiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';

/**
 * The bytes the main thread allocates while `work` runs, estimated by V8's sampling heap profiler
 * counting the objects garbage collection has already taken too: what a call leaves for the
 * collector (on the main thread and V8's helpers) to clear, which CPU time alone does not show.
 */
export async function allocatedBytes(work: () => Promise<unknown>): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    // The two options are V8's (Node 20's inspector typings lack them).
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as HeapProfiler.StartSamplingParameterType);
    await work();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    return total(profile.head);
  } finally {
    session.disconnect();
  }
}

function total(node: HeapProfiler.SamplingHeapProfileNode): number {
  return node.children.reduce((sum, child) => sum + total(child), node.selfSize);
}
