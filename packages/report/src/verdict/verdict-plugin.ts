import type { AgentestPlugin } from '@agentest/kernel';
import { withVerdict } from './judge.js';
import { checkThresholdNames } from './metric-names.js';
import { checkThresholdValues } from './threshold-values.js';

export const PLUGIN_NAME = 'agentest:verdict';

/** After every other `suite` tap, so that the names are checked against the suite the run will use. */
const LAST = 1000;

/**
 * The ship verdict, as a plugin: the kernel counts, this judges. Before any case runs it refuses a
 * threshold no metric of the suite can meet (a typo, a share over 100%); when the run ends it adds the thresholds and
 * the verdict (`can_ship`, the issues) to the summary, before any reporter hears it. The CLI and
 * `createDefaultKernel` include it; a kernel built without it reports no verdict.
 */
export function verdictPlugin(): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      hooks.suite.tap({ name: PLUGIN_NAME, stage: LAST }, (suite, { plan }) => {
        checkThresholdNames(plan, suite);
        checkThresholdValues(plan);
        return undefined;
      });
      hooks.summary.tap(PLUGIN_NAME, (summary, { plan }) => withVerdict(summary, plan.thresholds));
    },
  };
}
