import { attachmentPolicy, type AttachmentPolicy } from './attachment.js';
import { DEFAULT_MAX_DEPTH } from './nesting-depth.js';

/** What a suite's options allow beyond the defaults, as the plugin and `jsonlSuite` take them. */
export interface CaseRuleOptions {
  /** Keys a team's cases carry besides the case fields; accepted and ignored. */
  extraKeys?: readonly string[];
  /** How deep a case's JSON may nest (default 1,000 levels; the case object is level 1). */
  maxDepth?: number;
  /** Where `file://` parts may read from, besides the suite's folder and the app root, and how much. */
  files?: { allow?: readonly string[]; maxBytes?: number };
  /** `--simulator`: the agent that plays the user in dynamic cases that name none. */
  defaultSimulator?: string;
}

/** The same, resolved for one suite file: what each line is checked against. */
export interface CaseRules {
  extraKeys: ReadonlySet<string>;
  maxDepth: number;
  files: AttachmentPolicy;
  defaultSimulator?: string;
}

/** The rules for a suite whose file is in `baseDir`. */
export function caseRules(baseDir: string, options: CaseRuleOptions = {}): CaseRules {
  return {
    extraKeys: new Set(options.extraKeys ?? []),
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    files: attachmentPolicy(baseDir, options.files?.allow, options.files?.maxBytes),
    ...(options.defaultSimulator ? { defaultSimulator: options.defaultSimulator } : {}),
  };
}
