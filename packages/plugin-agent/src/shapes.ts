import * as z from 'zod';
import { lazy } from '@agentest/common';

/**
 * The three shapes a config agent may take, as zod schemas. They only check; callers keep the
 * original object (a class instance keeps its prototype, an adapter its `this`). Built on first use:
 * a run whose config declares no agent checks none.
 */
const fn = () =>
  z.custom<(...args: any[]) => unknown>((value) => typeof value === 'function', {
    error: (issue) => `must be a function (got ${describe(issue.input)})`,
  });

export const adapterShape = lazy(() => z.object({ call: fn(), evaluate: fn().optional() }));

export const agentShape = lazy(() =>
  z.object({
    run: fn(),
    close: fn().optional(),
    id: z.string().optional(),
    connector: z.string().optional(),
    path: z.string().optional(),
  }),
);

export const connectorAgentShape = lazy(() => {
  const contentPart = z.looseObject({ type: z.string() });
  const message = z.looseObject({
    role: z.string().min(1, 'must be a non-empty role (system, user, assistant, …)'),
    content: z.union([z.string(), z.array(contentPart), z.null()], {
      error: 'must be a string, an array of content parts or null',
    }),
  });
  return z.strictObject({
    connector: z.string().min(1, 'must name a connector'),
    prompts: z.array(message).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  });
});

export type AgentShape = 'adapter' | 'agent' | 'connector';

/** Which shape a value claims to be, by its distinguishing member; undefined when it claims none. */
export function shapeOf(value: unknown): AgentShape | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if ('call' in value) return 'adapter';
  if ('run' in value) return 'agent';
  if ('connector' in value) return 'connector';
  return undefined;
}

export const SHAPES_HINT =
  'an adapter { call(input), evaluate?(result, input) }, an agent { run(messages, ctx, signal) } or a connector agent { connector, prompts?, options? }';

/** The issues of a failed parse as `prefix.path: message` lines, joined with `; `. */
export function formatIssues(prefix: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** A short description of a value's type for messages: `undefined`, `a string`, `an array`, … */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
