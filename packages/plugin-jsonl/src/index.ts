export { default, PLUGIN_NAME, type JsonlPluginOptions } from './plugin.js';
export { detectInput, type Detection } from './detect-input.js';
export { jsonlSuite, DEFAULT_TIMEOUT_MS, type JsonlSuiteOptions } from './jsonl-suite.js';
export { messageSuite, MESSAGE_CASE_ID } from './message-suite.js';
export { parseCase, type LineContext } from './parse-case.js';
export { normaliseInput } from './normalise-input.js';
export { normaliseContentPart } from './content-parts.js';
export { InputShapeError } from './input-error.js';
export { readLines, type Line } from './read-lines.js';
