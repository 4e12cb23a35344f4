import { test, expect } from '@agentest/test';

// A custom assertion on one reply.
test('技术支持：崩溃问题', async (ctx) => {
  const result = await ctx.run('App 升级之后一直崩溃，无法正常打开');
  ctx.expect(result).toHaveStructure();
  ctx.expect(result).toHaveIntent('technical_support');
  ctx.expect(result).toMention('清除缓存');
  ctx.expect(result.quality_score).toBeGreaterThan(3);
});

// A conversation: the second turn rides on the first turn's session.
test('追问场景：查物流后申请退款', async (ctx) => {
  const r1 = await ctx.run('帮我查一下最新的订单物流');
  ctx.expect(r1).toHaveIntent('order_tracking');
  ctx.expect(r1).toMatchJsonPath('$.raw.data.turn', 1);

  const sessionId = r1.raw?.data?.sessionId;
  const r2 = await ctx.run({ query: '这个订单能申请退款吗？', sessionId, intent: 'refund_request' });
  expect(r2.intent_matched).toBe(true);
  expect(r2.raw.data.sessionId).toBe(sessionId);
  expect(r2.raw.data.turn).toBe(2);
  ctx.log('session', sessionId);
});

// Keywords and the .not chain.
test('账号问题不应被当成退款', async (ctx) => {
  const result = await ctx.run({
    query: '手机号换了，登录不了账号',
    expected_keywords: ['account_management', '手机号'],
  });
  expect(result).toHaveKeyword('account_management');
  expect(result).toHitRate(1);
  expect(result).not.toHaveIntent('refund_request');
});

// A data test: runs through the adapter like a line of cases.json.
test('退款：数据驱动', {
  query: '商品有质量问题，申请退款',
  expected_keywords: ['refund_request'],
  intent: 'refund_request',
});

test.skip('待修复：多语言客服', { query: 'Where is my order?' });
test.todo('多意图组合：退款 + 改地址');
