export { default, default as snapshotPlugin, PLUGIN_NAME, PLAN_OPTION, type SnapshotPluginOptions } from './plugin.js';
export { SNAPSHOT_ASSERTION_TYPE, snapshotChecker, validateSnapshotAssertion } from './snapshot-assertion.js';
export { SnapshotStore, type SnapshotCheck, type SnapshotReport, type SnapshotStoreOptions } from './snapshot-store.js';
export { snapshotFile, readSnapshots, serialiseSnapshots, canonicalJson, type SnapshotEntry } from './snapshot-file.js';
export { withoutIgnored, ignoreProblem, IGNORED } from './ignore-paths.js';
export { snapshotDiff } from './snapshot-diff.js';
export { snapshotStoreOf, attachSnapshotStore } from './store-registry.js';
export { snapshotVerdict, snapshotNameProblem, type SnapshotVerdict } from './snapshot-verdict.js';
