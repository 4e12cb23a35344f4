import { AgentestError, type AgentestPlugin, type RunEvent, type Suite } from '@agentest/kernel';
import { fuzzSuite, type FuzzOptions, type NotFuzzed } from './fuzz-suite.js';
import { RobustnessTally } from './robustness.js';

export const PLUGIN_NAME = 'agentest:fuzz';

/** Hears the results before every reporter, so that each of them gets the summary with `robustness`. */
const BEFORE_REPORTERS = -100;

/**
 * `--fuzz N [--seed S]`: after each case, N variants of it with a perturbed input (see `fuzzSuite`),
 * and robustness per case on the summary (`summary.robustness`): the original's verdict, the pass
 * rate on its variants, and the variants that broke it; the cases with no text to perturb are listed
 * in `summary.not_fuzzed` with why. Variants are cases like any other, so a broken variant is a failed case.
 */
export default function fuzzPlugin(options: FuzzOptions): AgentestPlugin {
  if (!Number.isInteger(options.variants) || options.variants < 1)
    throw new AgentestError('PLUGIN_INVALID', `${PLUGIN_NAME}: variants must be a whole number of at least 1`, {
      where: '--fuzz',
    });
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      let tally: RobustnessTally | undefined;
      const notFuzzed: NotFuzzed = new Map();
      hooks.suite.tap(PLUGIN_NAME, (suite: Suite) => fuzzSuite(suite, options, notFuzzed));
      hooks.report.tap({ name: PLUGIN_NAME, stage: BEFORE_REPORTERS }, (event: RunEvent) => {
        if (event.type === 'start') tally = new RobustnessTally();
        else if (event.type === 'result') tally?.add(event);
        else if (event.type === 'summary' && tally) {
          event.robustness = tally.summary();
          const skipped = tally.notFuzzed(notFuzzed);
          if (skipped.length) event.not_fuzzed = skipped;
        }
      });
    },
  };
}
