/*
 * `@agentest/kernel/secrets`: secret redaction. A plugin registers the values it must never print
 * (`registerSecret`, also on the main entry), and whatever writes text or values out (an error
 * printer, a snapshot, a cassette, an LLM report) redacts them or refuses to store them. `debugLogger`
 * makes a `DEBUG=<namespace>` logger whose lines are redacted too, loading `debug` on its first line.
 */
export { registerSecret, redactText, redactSecrets, findSecret } from './secrets.js';
export { debugLogger } from './debug-log.js';
