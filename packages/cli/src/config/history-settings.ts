import * as z from 'zod';
import { lazy } from '@agentest/common';

/** The config's `test.sequential`: Wald's SPRT per case for `--runs auto`. */
export interface SequentialSettings {
  p0?: number;
  p1?: number;
  alpha?: number;
  beta?: number;
  max?: number;
}

/** The config's `history`; the directory is made absolute (relative to the config's folder). */
export interface HistorySettings {
  enabled?: boolean;
  dir?: string;
  maxRuns?: number;
  maxBytes?: number;
}

export const SEQUENTIAL_KEYS = ['p0', 'p1', 'alpha', 'beta', 'max'] as const;
export const HISTORY_KEYS = ['enabled', 'dir', 'maxRuns', 'maxBytes'] as const;

const positiveInt = () => z.number().int().min(1);
const probability = () => z.number().gt(0).lt(1);

/**
 * `test.sequential`: probabilities strictly between 0 and 1, and a degraded pass rate below the healthy one.
 * Built on first use, as the config schema that holds it.
 */
export const sequentialShape = lazy(() =>
  z
    .object({
      p0: probability().optional(),
      p1: probability().optional(),
      alpha: probability().optional(),
      beta: probability().optional(),
      max: positiveInt().optional(),
    })
    .refine((s) => (s.p1 ?? 0.6) < (s.p0 ?? 0.9), {
      message: 'p1 (the pass rate of a degraded case, default 0.6) must be below p0 (a healthy one, default 0.9)',
    }),
);

/** `history`: at least one run kept, and at least 1 KB, so that a record fits. */
export const historyShape = lazy(() =>
  z.object({
    enabled: z.boolean().optional(),
    dir: z.string().min(1).optional(),
    maxRuns: positiveInt().optional(),
    maxBytes: z.number().int().min(1024).optional(),
  }),
);
