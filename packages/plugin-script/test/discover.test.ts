import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverTests, topLevelFunctions } from '../src/index.js';
import { unexportedDeclarations } from '../src/compile/discover.js';

const SOURCE = `// @ts-nocheck
import { x } from "./setup";
function TestPlain(t: testing.T, ctx: agent.Context) {}
export function TestExported(t) {}
async function TestAsync(t) {}
function helper() { function TestNested() {} }
// function TestCommented() {}
const TestArrow = () => {};
function TestMain(t) {}
function TestGeneric<T>(t) {}
`;

describe('discovery', () => {
  it('finds Test* functions in file order, exported or plain, with their lines', () => {
    assert.deepEqual(
      discoverTests(SOURCE).map((f) => [f.name, f.line, f.exported]),
      [
        ['TestPlain', 3, false],
        ['TestExported', 4, true],
        ['TestAsync', 5, false],
        ['TestGeneric', 10, false],
      ],
    );
  });

  it('keeps helpers and TestMain out of the tests but in the callable functions', () => {
    const names = topLevelFunctions(SOURCE).map((f) => f.name);
    assert.ok(names.includes('helper') && names.includes('TestMain'));
    assert.ok(!names.includes('TestNested') && !names.includes('TestArrow') && !names.includes('TestCommented'));
  });

  it('lists the top-level names a sibling declares without exporting them', () => {
    const sibling =
      'export function A() {}\nfunction B() {}\nconst C = 1;\nenum D { X }\nclass E {}\nlet F;\nexport { B as Bee };\nfunction G() {}\nexport { G };\n';
    assert.deepEqual(unexportedDeclarations(sibling), ['B', 'C', 'D', 'E', 'F']);
  });
});
