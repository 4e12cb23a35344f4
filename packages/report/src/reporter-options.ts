import { AgentestError } from '@agentest/kernel';
import * as z from 'zod';

/** The options every reporter accepts; reporters extend this with their own. Unknown keys are ignored. */
export const reporterOptionsSchema = z.object({
  /** The file to write, relative to `cwd`. */
  output: z.string().min(1, 'must not be empty').optional(),
  /** The directory relative paths start from (default: the process's working directory). */
  cwd: z.string().min(1, 'must not be empty').optional(),
  /** Include more detail (passed cases' inputs and outputs, logs). */
  verbose: z.boolean().optional(),
});

export type ReporterOptions = z.infer<typeof reporterOptionsSchema>;

/** The same, for reporters that have no default file and need `output` (the JSON and JSONL reporters). */
export const fileReporterOptionsSchema = reporterOptionsSchema.extend({
  output: z.string({ error: 'is required (a file path)' }).min(1, 'must not be empty'),
});

/**
 * Validates a reporter's options, turning zod's issues into one message that names the reporter and
 * every option at fault.
 */
export function parseReporterOptions<S extends z.ZodType>(reporter: string, schema: S, options: unknown): z.infer<S> {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `option "${issue.path.join('.') || '(options)'}" ${issue.message}`,
  );
  throw new AgentestError('PLUGIN_INVALID', `reporter "${reporter}": ${problems.join('; ')}`, {
    where: `reporters: ${reporter}`,
  });
}
