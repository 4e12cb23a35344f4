/*
 * `@agentest/kernel/secrets`: secret redaction. A plugin registers the values it must never print
 * (`registerSecret`, also on the main entry), and whatever writes text or values out (an error
 * printer, a snapshot, a cassette, an LLM report) redacts them or refuses to store them.
 */
export { registerSecret, redactText, redactSecrets, findSecret } from './secrets.js';
