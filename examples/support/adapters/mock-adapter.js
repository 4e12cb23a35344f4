// An offline stand-in for a customer-support assistant: it classifies Chinese queries into
// categories, keeps sessions for follow-up questions, and fails like a real backend when asked
// about maintenance. Swap it for an adapter that calls your system; nothing else changes.
import { defineAdapter } from '@agentest/test';

const CATEGORIES = [
  { id: 'refund_request', pattern: /退款|退货|退钱/, reply: '可以为您申请退款，退款将在 3-5 个工作日内原路退回。' },
  {
    id: 'order_tracking',
    pattern: /订单|物流|发货|快递|到哪/,
    reply: '您的订单已从上海仓发出，物流单号 SF1234567890，预计明天送达。',
  },
  {
    id: 'account_management',
    pattern: /账号|密码|登录|注册|手机号/,
    reply: '请在“我的-设置-账号安全”中重置密码，或通过手机号验证登录。',
  },
  {
    id: 'technical_support',
    pattern: /闪退|崩溃|卡顿|打不开|报错|升级/,
    reply: '请先将 App 更新到最新版本并清除缓存；如仍闪退，请提交日志。',
  },
];

const FOLLOW_UP = /这个订单|刚才|上一个|它/;

export function createMockAdapter({ latencyMs = 40 } = {}) {
  const sessions = new Map();

  return defineAdapter({
    async call(testCase) {
      const start = Date.now();
      await new Promise((resolve) => setTimeout(resolve, latencyMs + (testCase.query.length % 7) * 5));
      if (/维护|宕机/.test(testCase.query)) {
        return {
          case_id: testCase.case_id,
          query: testCase.query,
          elapsed_ms: Date.now() - start,
          error: null,
          raw: { code: 503, message: 'service under maintenance' },
        };
      }
      const sessionId = testCase.sessionId ?? `sess-${sessions.size + 1}`;
      const history = sessions.get(sessionId) ?? [];
      let matched = CATEGORIES.filter((c) => c.pattern.test(testCase.query));
      // A follow-up without its own topic inherits the session's last one.
      if (matched.length === 0 && FOLLOW_UP.test(testCase.query) && history.length)
        matched = [CATEGORIES.find((c) => c.id === history.at(-1))];
      sessions.set(sessionId, [...history, ...matched.map((c) => c.id)]);
      const raw = {
        code: 0,
        data: {
          sessionId,
          turn: history.length + 1,
          categories: matched.map((c) => c.id),
          reply: matched.length ? matched.map((c) => c.reply).join(' ') : '抱歉，我没有理解您的问题，请换个说法。',
        },
      };
      return { case_id: testCase.case_id, query: testCase.query, elapsed_ms: Date.now() - start, error: null, raw };
    },

    // May be async: agentest awaits it.
    async evaluate(callResult, testCase) {
      const { error, raw } = callResult;
      const structure_ok = !error && raw?.code === 0 && Array.isArray(raw?.data?.categories);
      const categories = structure_ok ? raw.data.categories : [];
      const intent_matched = structure_ok && (!testCase.intent || categories.includes(testCase.intent));
      const expected = testCase.expected_keywords ?? [];
      const keyword_hits = expected.filter((k) => categories.includes(k) || raw?.data?.reply?.includes(k));
      const keyword_hit_rate = expected.length ? keyword_hits.length / expected.length : null;
      const failure_details = [];
      if (!structure_ok) failure_details.push(`backend answered code ${raw?.code}: ${raw?.message ?? 'no data'}`);
      else if (!intent_matched)
        failure_details.push(`intent: expected ${testCase.intent}, got ${categories.join(', ') || 'none'}`);
      return {
        ...callResult,
        structure_ok,
        intent_matched,
        keyword_hits,
        keyword_hit_rate,
        quality_score: structure_ok
          ? (intent_matched ? 5 : 3) - (keyword_hit_rate !== null && keyword_hit_rate < 0.5 ? 1 : 0)
          : 0,
        failure_details,
        normalized_categories: categories,
      };
    },
  });
}
