import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Agent, AgentestPlugin } from '@agentest/kernel';
import consoleReporter from '@agentest/reporter-console';
import githubReporter from '@agentest/reporter-github';
import htmlReporter from '@agentest/reporter-html';
import jsonReporter from '@agentest/reporter-json';
import jsonlReporter from '@agentest/reporter-jsonl';
import junitReporter from '@agentest/reporter-junit';
import llmReporter from '@agentest/reporter-llm';
import markdownReporter, { createReporter as markdownReport } from '@agentest/reporter-markdown';
import summaryReporter from '@agentest/reporter-summary';

/** Every built-in reporter writing into `dir`, and how to read back what each wrote. */
export interface EveryReporter {
  plugins: AgentestPlugin[];
  /** Output name → text: the files, the console (`console`), the GitHub workflow commands and job summary. */
  outputs(): Record<string, string>;
}

const FILES = {
  jsonl: 'run.jsonl',
  json: 'report.json',
  markdown: 'report.md',
  html: 'report.html',
  junit: 'junit.xml',
  summary: 'summary.txt',
  llm: 'llm.md',
} as const;

/**
 * The built-in reporters as the CLI would set them up for `-v -o` every format, on GitHub Actions,
 * with a reporter agent that quotes the report it was sent (so its input is checked too).
 */
export function everyReporter(
  dir: string,
  options: { verbose?: boolean; onConsole?: (text: string) => void } = {},
): EveryReporter {
  const verbose = options.verbose ?? true;
  let consoleText = '';
  const workflow: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      consoleText += String(chunk);
      options.onConsole?.(consoleText);
      done();
    },
  });
  const quoting: Agent = {
    id: 'report.quote',
    run: async (messages) => ({ content: `# Quoted\n\n${String(messages.at(-1)!.content)}`, text: '' }),
  };
  const plugins = [
    consoleReporter({ stream, color: false, progress: false, verbose }),
    jsonlReporter({ output: FILES.jsonl, cwd: dir }),
    jsonReporter({ output: FILES.json, cwd: dir }),
    markdownReporter({ output: FILES.markdown, cwd: dir, verbose }),
    htmlReporter({ output: FILES.html, cwd: dir, verbose }),
    junitReporter({ output: FILES.junit, cwd: dir, verbose }),
    summaryReporter({ output: FILES.summary, cwd: dir }),
    githubReporter({
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') },
      write: (line) => void workflow.push(line),
    }),
    llmReporter({
      agent: async () => quoting,
      format: 'markdown',
      output: FILES.llm,
      cwd: dir,
      fallback: markdownReport({ output: FILES.llm, cwd: dir }),
      verbose,
    }),
  ];
  return {
    plugins,
    outputs() {
      const texts: Record<string, string> = {
        console: consoleText,
        github: workflow.join('\n'),
        'step-summary.md': readFileSync(join(dir, 'step-summary.md'), 'utf8'),
      };
      for (const file of Object.values(FILES)) texts[file] = readFileSync(join(dir, file), 'utf8');
      return texts;
    },
  };
}
