export { callModel, callTool, caseClock, type ModelCall, type ModelExchange, type ToolExchange } from './boundary.js';
export { replayChunks, PASS_THROUGH, type Recorder, type Recorded } from './tape.js';
export {
  cassettesPlugin,
  usagePlugin,
  CASSETTES_PLUGIN_NAME,
  USAGE_PLUGIN_NAME,
  type UsageOptions,
} from './plugins.js';
export { CASSETTE_MODES, type CassetteMode, type CassetteOptions } from './session.js';
export { DEFAULT_FOLDER, caseFile, suiteCassetteDir, readCassette } from './cassette-file.js';
export type { CassetteEntry, CallPosition, CallKind, RecordedChunk } from './entry.js';
export { canonicalRequest, requestHash } from './canonical.js';
export { DEFAULT_PRICES, DEFAULT_PRICES_DATE, PriceTable, type Price } from './usage/prices.js';
export { addTotals, emptyTotals } from './usage/totals.js';
export type { Budget } from './usage/meter.js';
