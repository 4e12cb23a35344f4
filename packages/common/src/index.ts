/**
 * The small value helpers agentest's packages share so that they agree: durations written as Go
 * writes them (what Yao's files and messages use), JSON whose numbers keep their exact digits, JSON
 * that never throws, JSON escaped as Go writes it, the JSON in a model's reply, a seeded PRNG, whether
 * the process runs on CI, values made on first use, costs in dollars, and RE2 patterns loaded when a run has some.
 * Mechanism is in @agentest/kernel, the report model in @agentest/report.
 */
export { parseDuration, withoutUnit, goDuration } from './duration.js';
export { parseJson, exactText, carryExactText, sameExactNumber } from './exact-numbers.js';
export { safeStringify } from './safe-json.js';
export { goJsonEscape } from './go-json.js';
export { replyJson } from './reply-json.js';
export { hashString, mulberry32, pickWeighted } from './prng.js';
export { isCi } from './ci.js';
export { lazy } from './lazy.js';
export { formatUsd } from './usd.js';
export { loadRe2, re2, re2Loaded, type Re2 } from './re2.js';
