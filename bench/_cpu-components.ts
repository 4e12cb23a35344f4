import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';

/** What the main thread's CPU went to, by the part of the stack that spent it. */
export interface ComponentShare {
  component: string;
  /** Share of the main thread's busy samples (idle left out). */
  share: number;
}

/**
 * Where a self-time sample belongs, by the script it ran in (first match wins). Native frames with
 * no script are named by V8: `writev` is the socket write, `execute` Node's HTTP parser.
 */
const COMPONENTS: [string, (url: string, name: string) => boolean][] = [
  ['garbage collection (on the main thread)', (_, name) => name === '(garbage collector)'],
  [
    'socket writes (the kernel’s loopback TCP, in the `writev` system call)',
    (url, name) => !url && (name === 'writev' || name === 'writeUtf8String' || name === 'writeBuffer'),
  ],
  [
    'Node’s HTTP client and streams (node:http, node:net, the HTTP parser)',
    (url, name) =>
      /^node:(_http_|http$|https$|net$|stream$|internal\/(streams|stream_base_commons|http|url))/.test(url) ||
      (!url && name === 'execute'),
  ],
  ['the OpenAI SDK', (url) => url.includes('/node_modules/openai/')],
  ['fetch’s `Headers` (undici), which the SDK builds and reads', (url) => url.startsWith('node:internal/deps/undici')],
  [
    'abort signals, events, timers',
    (url) => /^node:(events$|timers$|internal\/(abort_controller|event_target|timers|linkedlist))/.test(url),
  ],
  [
    'promise and tick queues',
    (url, name) => url === 'node:internal/process/task_queues' || (!url && name === 'runMicrotasks'),
  ],
  [
    'the connector (agentest’s fetch, retries, cassette boundary)',
    (url) => /\/packages\/(connectors|cassettes)\//.test(url),
  ],
  ['the runner and plugins (kernel, agent, dynamic, assertions)', (url) => /\/packages\//.test(url)],
];

const IDLE = new Set(['(idle)', '(program)', '(root)']);

/** Runs `work` under V8's sampling profiler and splits the main thread's busy samples by component. */
export async function cpuComponents(work: () => Promise<unknown>): Promise<ComponentShare[]> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
    await work();
    const { profile } = await session.post('Profiler.stop');
    return shares(profile);
  } finally {
    session.disconnect();
  }
}

function shares(profile: Profiler.Profile): ComponentShare[] {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const totals = new Map<string, number>();
  let busy = 0;
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const frame = frames.get(id)!;
    if (IDLE.has(frame.functionName) && !frame.url) return;
    const time = deltas[i] ?? 0;
    const component =
      COMPONENTS.find(([, test]) => test(frame.url, frame.functionName))?.[0] ?? 'other (Node’s internals, JSON)';
    totals.set(component, (totals.get(component) ?? 0) + time);
    busy += time;
  });
  return [...totals]
    .map(([component, time]) => ({ component, share: busy ? time / busy : 0 }))
    .sort((a, b) => b.share - a.share);
}

/** The shares as a Markdown table, with each share of the main thread's CPU per call (`perCallMs`). */
export function formatComponents(components: ComponentShare[], perCallMs: number): string {
  if (!components.length) return '';
  return [
    '',
    `What the main thread's CPU went to, by component (V8's sampling profiler over one more run of the suite, its busy samples only; the shares applied to the median run's ${perCallMs.toFixed(2)} ms per call):`,
    '',
    '| component | share | CPU per call |',
    '|---|---:|---:|',
    ...components.map(
      (c) => `| ${c.component} | ${(c.share * 100).toFixed(1)} % | ${(c.share * perCallMs).toFixed(3)} ms |`,
    ),
  ].join('\n');
}
