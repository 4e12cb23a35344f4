import * as z from 'zod';
import { AgentestError } from '@agentest/kernel';
import { formatZodIssues } from './settings.js';

const replyValue = z.union([
  z.string(),
  z.record(z.string(), z.unknown()),
  z.array(z.unknown()),
  z.number(),
  z.boolean(),
]);
const toolCall = z.strictObject({
  name: z.string().min(1),
  arguments: z.unknown().optional(),
  id: z.string().optional(),
});
const latency = z.union([z.number().nonnegative(), z.tuple([z.number().nonnegative(), z.number().nonnegative()])]);
const choice = z.strictObject({
  reply: replyValue.optional(),
  weight: z.number().nonnegative().optional(),
  tool_calls: z.array(toolCall).optional(),
});
const rule = z.strictObject({
  match: z.string().optional(),
  after_tool: z.string().min(1).optional(),
  reply: replyValue.optional(),
  choices: z.array(choice).min(1).optional(),
  tool_calls: z.array(toolCall).optional(),
  latency_ms: latency.optional(),
});

export const mockOptionsShape = z.strictObject({
  replies: z.array(rule).optional(),
  default: replyValue.optional(),
  latency_ms: latency.optional(),
  seed: z.number().optional(),
  error_rate: z.number().min(0).max(1).optional(),
  model: z.string().optional(),
  concurrency: z.number().int().min(1).optional(),
});

export type MockOptions = z.infer<typeof mockOptionsShape>;
export type MockRule = z.infer<typeof rule>;
export type MockReplyValue = z.infer<typeof replyValue>;
export type MockToolCall = z.infer<typeof toolCall>;
export type Latency = z.infer<typeof latency>;

/** A validated rule with its regex compiled once. */
export interface CompiledMockRule extends MockRule {
  index: number;
  pattern?: RegExp;
}

/** Validates mock options; a bad regex, a weightless choice list or an unknown key is CONNECTOR_INVALID. */
export function parseMockOptions(
  id: string,
  raw: Record<string, unknown>,
): { options: MockOptions; rules: CompiledMockRule[] } {
  const where = `connectors.${id}`;
  const parsed = mockOptionsShape.safeParse(raw);
  if (!parsed.success)
    throw new AgentestError('CONNECTOR_INVALID', `connector "${id}" (mock): ${formatZodIssues(parsed.error)}`, {
      where,
    });
  const rules = (parsed.data.replies ?? []).map((r, index): CompiledMockRule => {
    if (r.choices && r.choices.every((c) => (c.weight ?? 1) === 0)) {
      throw new AgentestError(
        'CONNECTOR_INVALID',
        `connector "${id}" (mock): replies.${index}.choices all have weight 0`,
        { where },
      );
    }
    if (r.match === undefined) return { ...r, index };
    try {
      return { ...r, index, pattern: new RegExp(r.match, 'i') };
    } catch (error) {
      throw new AgentestError(
        'CONNECTOR_INVALID',
        `connector "${id}" (mock): replies.${index}.match ${JSON.stringify(r.match)} is not a valid regex: ${(error as Error).message}`,
        { where },
      );
    }
  });
  const lat = parsed.data.latency_ms;
  for (const [value, at] of [
    [lat, 'latency_ms'],
    ...rules.map((r) => [r.latency_ms, `replies.${r.index}.latency_ms`] as const),
  ] as const) {
    if (Array.isArray(value) && value[0] > value[1])
      throw new AgentestError('CONNECTOR_INVALID', `connector "${id}" (mock): ${at} [min, max] has min > max`, {
        where,
      });
  }
  return { options: parsed.data, rules };
}
