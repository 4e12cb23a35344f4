export { normalQuantile, normalCdf, erfc } from './normal.js';
export { wilsonInterval, type Interval } from './wilson.js';
export { mcnemar, EXACT_BELOW, type McNemarResult } from './mcnemar.js';
export { fisherExact, type FisherResult, type PassTable } from './fisher.js';
export { holm } from './holm.js';
export { seededRandom, randomIndex, type Random } from './random.js';
export { sortedQuantile, median, mean, sampleVariance } from './quantile.js';
export {
  pairedBootstrap,
  DEFAULT_RESAMPLES,
  type PairedRuns,
  type BootstrapOptions,
  type BootstrapResult,
} from './paired-bootstrap.js';
export { medianChange, type PairedValue, type MedianChange } from './median-bootstrap.js';
export {
  powerFactor,
  differenceVariance,
  requiredCases,
  requiredRuns,
  type PowerOptions,
  type SampleSize,
  type RunsNeeded,
} from './power.js';
export { sprt, type Sprt, type SprtOptions, type SprtDecision } from './sprt.js';
export { passHatK, passAtK } from './pass-k.js';
