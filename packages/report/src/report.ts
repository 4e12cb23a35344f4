import type {
  CaseResult,
  DeepReadonly,
  Environment,
  Execution,
  ResultEvent,
  StartEvent,
  Summary,
  SummaryEvent,
} from '@agentest/kernel';
import { scriptSuiteInfo, suiteKindOf, type SuiteKind } from './suite-kind.js';

export type ReadonlyResult = DeepReadonly<CaseResult>;

/** When and on what the run happened: the seed's `metadata` block plus the suite it ran. */
export interface ReportMetadata {
  started_at: string;
  completed_at: string;
  /** The suite's label: the input file, the script id, the directory. */
  input_file: string;
  output_file?: string;
  /** How the suite is laid out: `agent`, `script`, `kit` (see `SuiteKind`). */
  kind: SuiteKind;
  /** Script suites: `scripts.x.y` and the test file it resolved to. */
  script?: string;
  script_path?: string;
  /** Everything the suite told reporters (`start.meta`). */
  suite_meta?: DeepReadonly<Record<string, unknown>>;
  /** Set by reporters that had to shorten the report (the LLM reporter): what was left out and how. */
  trimmed?: Record<string, unknown>;
}

/** The whole run as one document: the Yao report's blocks, with every case's runs kept. */
export interface Report {
  summary: DeepReadonly<Summary>;
  environment: DeepReadonly<Environment>;
  results: ReadonlyResult[];
  metadata: ReportMetadata;
}

/**
 * Keeps what document reporters need from the event stream and assembles the report at the end.
 * The full agent reply on each run (`execution.reply`) is dropped: it is never part of a report and
 * would multiply the memory a long run holds.
 */
export class ReportCollector {
  private start?: DeepReadonly<StartEvent>;
  private results: ReadonlyResult[] = [];

  onStart(event: DeepReadonly<StartEvent>): void {
    this.start = event;
    this.results = [];
  }

  onResult(event: DeepReadonly<ResultEvent>): void {
    this.results.push(reportResult(event));
  }

  /** The report as of the summary event; call once per run. */
  build(event: DeepReadonly<SummaryEvent>): Report {
    const { type: _type, started_at, completed_at, ...summary } = event;
    const start = this.start;
    const meta = start?.meta;
    const kind = suiteKindOf(start);
    return {
      summary,
      environment: start?.environment ?? EMPTY_ENVIRONMENT,
      results: this.results,
      metadata: {
        started_at,
        completed_at,
        input_file: start?.suite ?? '',
        kind,
        ...(kind === 'script' && start ? scriptSuiteInfo(start) : {}),
        ...(meta && Object.keys(meta).length ? { suite_meta: meta } : {}),
      },
    };
  }
}

/** A result event as a report keeps it: the result without its event type, and each run without its full reply. */
export function reportResult(event: DeepReadonly<ResultEvent>): ReadonlyResult {
  const { type: _type, ...result } = event;
  return { ...result, runs: result.runs.map(withoutReply) };
}

const EMPTY_ENVIRONMENT: Environment = {
  user_id: '',
  team_id: '',
  locale: '',
  client_type: '',
  client_ip: '',
  referer: '',
  accept: '',
};

function withoutReply(run: DeepReadonly<Execution>): DeepReadonly<Execution> {
  if (!('reply' in run)) return run;
  const { reply: _reply, ...rest } = run;
  return rest;
}
