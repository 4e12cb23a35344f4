// @ts-nocheck
// Script tests for setup.ts: `agentest test -i scripts.expense.setup -v` from examples/app.
// The functions of setup.ts are callable without an import, as in Yao.

// Runs once before the tests; what it returns is `t.main` in every test.
function TestMain(t: testing.T, ctx: agent.Context) {
  return { currency: 'EUR' };
}

// Runs before each test, in the same fresh context as the test.
function BeforeEach(t: testing.T, ctx: agent.Context) {
  ctx.Metadata.prepared = true;
}

function TestSystemReady(t: testing.T, ctx: agent.Context) {
  const { assert } = t;
  assert.True(SystemReady(ctx), 'SystemReady should return true');
  assert.Equal(ctx.User.ID, ctx.authorized.user_id, 'both context shapes carry the user');
  assert.True(ctx.metadata.prepared, 'BeforeEach ran');
  assert.Equal(t.main, { currency: 'EUR' });
}

function TestSystemReadyWithInvalidContext(t: testing.T, ctx: agent.Context) {
  ctx.User = null;
  t.assert.False(SystemReady(ctx), 'SystemReady should return false when user is null');
}

// Helper: not a test, it does not start with "Test".
function createMockData() {
  return { id: 1, amount: 250 };
}

function TestSetupWithMockData(t: testing.T, ctx: agent.Context) {
  const result = Setup(ctx, createMockData());
  t.assert.NotNil(result, 'Setup should return a result');
  t.assert.Equal(result.id, 1, 'Result ID should match');
  t.assert.JSONPath(result, '$.owner', ctx.User.ID);
  t.log('created', result);
}

export async function TestTotalAsync(t: testing.T) {
  const items = await Promise.resolve([
    Setup({ User: { ID: 'u' } }, { id: 1, amount: 600 }),
    Setup({ User: { ID: 'u' } }, { id: 2, amount: 500 }),
  ]);
  t.assert.Equal(Total(items), 1100);
  t.assert.Equal(LevelOf(Total(items)), Level.High);
}

// A failing test: the report shows the assertion's expected and actual values.
function TestTotalIsWrong(t: testing.T) {
  t.assert.Equal(Total([{ id: 1, amount: 2, owner: 'u' }]), 3, 'total of one expense');
}

function TestNeedsDatabase(t: testing.T) {
  t.skip('no database in this environment');
}

// fatal() records the failure and stops the test: the last line never runs.
function TestFatalStops(t: testing.T) {
  t.fatal('configuration missing');
  t.assert.True(false, 'never reached');
}
