// `max-lines-per-function`, except for the callbacks of node:test's `describe`/`suite`: those only group
// tests (every test inside is still a function held to the limit), so their length is the file's concern,
// which `max-lines` already bounds.
import { builtinRules } from 'eslint/use-at-your-own-risk';

const core = builtinRules.get('max-lines-per-function');
const GROUPS = new Set(['describe', 'suite']);

function groupName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  // describe.skip(...), describe.only(...)
  if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier') return callee.object.name;
  return undefined;
}

function isGroupCallback(node) {
  const call = node.parent;
  return call?.type === 'CallExpression' && call.arguments.includes(node) && GROUPS.has(groupName(call.callee));
}

/** @type {import('eslint').Rule.RuleModule} */
export const functionSize = {
  meta: { ...core.meta, docs: { description: `${core.meta.docs.description}, except test groups` } },
  create(context) {
    const filtered = Object.create(context, {
      report: { value: (descriptor) => isGroupCallback(descriptor.node) || context.report(descriptor) },
    });
    return core.create(filtered);
  },
};
