export { default, PLUGIN_NAME, type JsonlPluginOptions } from './plugin.js';
export { detectInput, type Detection } from './detect-input.js';
export { jsonlSuite, DEFAULT_TIMEOUT_MS, type JsonlSuiteOptions } from './jsonl-suite.js';
export { messageSuite, MESSAGE_CASE_ID } from './message-suite.js';
export { parseCase, createCase, type LineContext } from './parse-case.js';
export { memorySuite, MEMORY_SUITE_NAME } from './memory-suite.js';
export { normaliseInput } from './normalise-input.js';
export { normaliseContentPart } from './content-parts.js';
export { InputShapeError } from './input-error.js';
export { readLines, type Line } from './read-lines.js';
export { generatedItems, generatedSuite, type GeneratedSuiteOptions } from './generated-suite.js';
export {
  generatorKind,
  parseAgentSource,
  parseScriptSource,
  SCRIPT_SOURCE_FORM,
  type AgentSource,
  type ScriptSource,
} from './generator-source.js';
export { toJsonlCase } from './to-jsonl-case.js';
