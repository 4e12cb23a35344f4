/**
 * Where the echo suite's time goes: V8's sampling profile of the command (`--cpu-prof`), each sample given to one
 * part of the run. Module evaluation goes to the module whose top-level code is running (the bundle names each
 * module's init function after its path; what that code calls counts for it), grouped by package; the rest to
 * the phase of the run on the stack (config, history, plugins, reporters, the kernel's run), to V8's compiler and
 * garbage collector, or to Node's own start-up and loaders. The profile samples wall time while the thread
 * runs; on a busy machine a preempted thread inflates whatever it was doing, so the shares are the figures to read.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The run's phases, by the CLI function on the stack (the innermost one wins). */
const PHASES: [RegExp, string][] = [
  [
    /^(runWithSignals|reportOutcome|runPlan|preflight|execute|finish|finishSeries|lane|onCase|onResult|deliver)$/,
    "the kernel's run: 10 cases, reporters, history record",
  ],
  [
    /^(claimReporters|setupReporters|setupBaseline|setupBlob|setupCoverage|checkReporterAgents)$/,
    'reporters and other set-up',
  ],
  [/^kernelFromConfig$/, 'default plugins: made and applied'],
  [/^setupHistory$/, 'history: read, git state'],
  [/^(prepareRun|loadConfig|normaliseConfig)$/, 'config: searched and validated'],
  [/^(runCommand|parseAsync|main)$/, 'command line: parsed'],
];

/** Self time per part of the run, in milliseconds, from each of the given profiles (averaged). */
export function attribute(files: string[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    profile.samples.forEach((id, i) => {
      const stack: CallFrame[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
      const part = partOf(stack);
      totals.set(part, (totals.get(part) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000 / files.length);
    });
  }
  return totals;
}

function partOf(stack: CallFrame[]): string {
  const leaf = stack[0]!.functionName;
  if (leaf === '(garbage collector)') return 'garbage collection';
  if (leaf === '(idle)') return 'idle (waiting for files, git, the event loop)';
  if (leaf === '(program)') return 'V8 outside JavaScript (compiling, parsing)';
  for (const frame of stack) {
    const module = /^(packages\/[^/]+|node_modules\/(?:@[^/]+\/)?[^/]+)\/.+\.[cm]?js$/.exec(frame.functionName);
    if (module) return `evaluating ${module[1]!.replace(/^node_modules\//, '')}`;
  }
  for (const frame of stack)
    if (/^(compileFunction|wrapSafe|compileSourceTextModule|loadCachedScript)$/.test(frame.functionName))
      return 'compiling and loading scripts';
  for (const frame of stack) for (const [name, part] of PHASES) if (name.test(frame.functionName)) return part;
  return stack.some((frame) => frame.url.startsWith('file:'))
    ? "the command's other callbacks (file reads and writes, the history store)"
    : "Node's start-up, loaders and built-in modules";
}

/** A Markdown table of the parts, largest first, with their share of the whole. */
export function partsTable(parts: Map<string, number>): string {
  const total = [...parts.values()].reduce((sum, value) => sum + value, 0);
  const rows = [...parts]
    .sort((a, b) => b[1] - a[1])
    .map(([part, value]) => `| ${part} | ${value.toFixed(1)} ms | ${((value / total) * 100).toFixed(1)} % |`);
  return `| part of the run | time | share |\n|---|---:|---:|\n${rows.join('\n')}\n| **all** | **${total.toFixed(1)} ms** | |`;
}
