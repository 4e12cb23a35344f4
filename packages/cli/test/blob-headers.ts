import { BLOB_FORMAT, type BlobHeader } from '../src/blob/blob-header.js';

/** A blob header of shard `index` of two, holding `cases` (a suite of three unless `extra` says otherwise). */
export function shardHeader(index: number, cases: string[], extra: Partial<BlobHeader> = {}): BlobHeader {
  return {
    type: 'blob',
    format: BLOB_FORMAT,
    run_id: 'r',
    run_id_source: '--run-id',
    shard: { index, total: 2, source: '--shard' },
    suite_hash: 'sha256:s',
    config_hash: 'sha256:c',
    agentest_version: '1.0.0',
    suite_cases: 3,
    cases,
    positions: cases.map((_, i) => i),
    ...extra,
  };
}
