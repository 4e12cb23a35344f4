export { default, PLUGIN_NAME } from './plugin.js';
export {
  fuzzSuite,
  variant,
  VARIANT_SEPARATOR,
  type FuzzOptions,
  type FuzzMark,
  type NotFuzzed,
} from './fuzz-suite.js';
export { perturb, PERTURBATIONS, type Perturbation } from './perturb.js';
export { RobustnessTally } from './robustness.js';
