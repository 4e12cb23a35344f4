export { expect, matcherNames, type Assertion, type Expect } from './expect.js';
export { AssertionError, isAssertionError } from './assertion-error.js';
export {
  CANNOT_JUDGE,
  judging,
  misuse,
  subjects,
  verdict,
  type Matcher,
  type MatcherOutcome,
  type Subject,
} from './matcher.js';
export { equals, difference, matchesSubset } from './equals.js';
export { show, percent } from './format.js';
export { queryJsonPath } from './json-path.js';
export {
  setJudgeRunner,
  JudgeError,
  type JudgeRunner,
  type SatisfyOptions,
  type SatisfyRequest,
  type SatisfyVerdict,
} from './satisfy.js';
export { setSnapshotRunner, type SnapshotRunner, type SnapshotRequest, type SnapshotOutcome } from './snapshot.js';
