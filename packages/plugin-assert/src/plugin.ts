import { AgentestError, type AgentestPlugin, type Assertion } from '@agentest/kernel';
import * as z from 'zod';
import { builtinAssertions } from './assertions/index.js';
import { runAssertion, type AssertionDefinition } from './definition.js';
import { preloadRe2 } from './regex-preload.js';
import { builtinAssertion } from './validate.js';

export const PLUGIN_NAME = 'agentest:assert';

const OptionsSchema = z.strictObject({}).optional();

/** Type names that mean `equals` too: Yao treats an assertion with an empty type as equality. */
const EQUALS_ALIASES = [''];

/**
 * The built-in assertion types, one tap per type on `hooks.assert.for(type)`. The kernel applies
 * `negate` and `message` and joins failures; each type only judges the output. A suite with RE2
 * patterns loads the engine as its cases come (`preloadRe2`).
 */
export default function assertPlugin(options?: Record<string, never>): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      if (!OptionsSchema.safeParse(options).success) {
        throw new AgentestError('PLUGIN_INVALID', `${PLUGIN_NAME}: takes no options, got ${JSON.stringify(options)}`, {
          where: PLUGIN_NAME,
        });
      }
      for (const definition of builtinAssertions) {
        hooks.assert
          .for(definition.type)
          .tap(tapOptions(definition), (assertion, input) => runAssertion(definition, assertion, input));
      }
      hooks.suite.tap(PLUGIN_NAME, (suite) => preloadRe2(suite));
      const equals = builtinAssertion('equals')!;
      for (const alias of EQUALS_ALIASES)
        hooks.assert.for(alias).tap(tapOptions(equals), (assertion, input) => runAssertion(equals, assertion, input));
    },
  };
}

/** The tap's name and its `validate`, which lets the kernel refuse a malformed assertion before the run. */
function tapOptions(definition: AssertionDefinition) {
  return { name: PLUGIN_NAME, validate: (assertion: Assertion) => definition.validate?.(assertion) };
}
