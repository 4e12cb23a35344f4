import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { AgentestError, type AgentestPlugin, type RunPlan } from '@agentest/kernel';
import * as z from 'zod';
import { askGenerator } from './agent-generator.js';
import { detectInput } from './detect-input.js';
import { generatedItems, generatedSuite } from './generated-suite.js';
import { generatorKind, parseAgentSource } from './generator-source.js';
import { jsonlSuite } from './jsonl-suite.js';
import { messageSuite } from './message-suite.js';

export const PLUGIN_NAME = 'agentest:jsonl';

const OptionsSchema = z.strictObject({
  /** Longest line accepted, in bytes (default 10 MiB): a guard against a file that is not JSONL. */
  maxLineBytes: z.number().int().min(1024).optional(),
  /** Keys a team's cases carry besides the case fields: accepted and ignored (default: none). */
  extraKeys: z.array(z.string().min(1)).optional(),
  /** How deep a case's JSON may nest (default 1,000 levels). */
  maxDepth: z.number().int().min(2).optional(),
  /** `file://` parts: folders they may read from besides the suite's folder and the app root, and the size cap. */
  files: z
    .strictObject({
      allow: z.array(z.string().min(1)).optional(),
      maxBytes: z.number().int().min(1).optional(),
    })
    .optional(),
});

export type JsonlPluginOptions = z.input<typeof OptionsSchema>;

const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * Loads JSONL test files (streamed line by line) and direct messages (`-i "Hello"`), as the Yao
 * design's input modes describe. `scripts.…`, `.json` files, directories and globs are left to the
 * other loaders.
 */
export default function jsonlPlugin(options: JsonlPluginOptions = {}): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      const opts = parseOptions(options);
      const generated: (() => Promise<void>)[] = [];
      hooks.load.tapPromise(PLUGIN_NAME, async ({ input, cwd }, ctx) => {
        const generator = generatorKind(input);
        // `scripts:` generators run user code: the script plugin's.
        if (generator === 'scripts') return undefined;
        if (generator !== 'agents') return loadFileOrMessage(input, cwd, ctx.plan, opts);
        const source = parseAgentSource(input);
        const items = generatedItems(await askGenerator(source, input, ctx), `generator "${source.id}"`);
        const made = await generatedSuite(items, {
          name: input,
          cwd,
          maxLineBytes: opts.maxLineBytes,
          requested: source.count,
          ...(opts.extraKeys ? { extraKeys: opts.extraKeys } : {}),
          ...(opts.maxDepth ? { maxDepth: opts.maxDepth } : {}),
          ...(ctx.plan.simulator ? { defaultSimulator: ctx.plan.simulator } : {}),
        });
        generated.push(made.dispose);
        return made.suite;
      });
      hooks.teardown.tapPromise(PLUGIN_NAME, async () => {
        await Promise.all(generated.splice(0).map((dispose) => dispose()));
      });
    },
  };
}

type ParsedOptions = z.output<typeof OptionsSchema> & { maxLineBytes: number };

function parseOptions(options: JsonlPluginOptions): ParsedOptions {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AgentestError(
      'PLUGIN_INVALID',
      `${PLUGIN_NAME}: option "${issue.path.join('.') || '(options)'}": ${issue.message}`,
      { where: PLUGIN_NAME },
    );
  }
  return { ...parsed.data, maxLineBytes: parsed.data.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES };
}

/** `-i` as a JSONL file or a direct message; anything else (a directory, a glob) is another loader's. */
async function loadFileOrMessage(input: string, cwd: string, plan: RunPlan, opts: ParsedOptions) {
  const { maxLineBytes, extraKeys, maxDepth, files } = opts;
  if (!input.trim())
    throw new AgentestError('INPUT_INVALID', '-i is empty — pass a .jsonl file or a message', { where: '-i' });
  const detection = await detectInput(input, cwd);
  if (detection.mode === 'message') return messageSuite(input, cwd);
  if (detection.mode === 'other') return undefined;
  const found =
    detection.mode === 'file' &&
    (await stat(detection.path).then(
      (s) => s.isFile(),
      () => false,
    ));
  if (!found)
    throw new AgentestError(
      'INPUT_NOT_FOUND',
      `input file not found: ${detection.path} — check the -i path (relative paths start at ${cwd})`,
      { where: '-i' },
    );
  const allow = files?.allow?.map((dir) => resolve(cwd, dir));
  return jsonlSuite({
    name: input,
    path: detection.path,
    file: displayPath(detection.path, cwd),
    maxLineBytes,
    ...(extraKeys ? { extraKeys } : {}),
    ...(maxDepth ? { maxDepth } : {}),
    ...(files ? { files: { ...files, ...(allow ? { allow } : {}) } } : {}),
    ...(plan.simulator ? { defaultSimulator: plan.simulator } : {}),
  });
}

/** Paths inside the working directory are shown relative to it, as the user typed them. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
