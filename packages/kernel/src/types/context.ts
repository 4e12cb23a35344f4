/**
 * The context handed to agents, hooks and scripts, as the Yao design describes it.
 * Built from defaults, the `--ctx` file, case fields and `-u/-t`, in the priority the design states.
 */
export interface TestContext {
  user_id: string;
  team_id: string;
  locale: string;
  chat_id: string;
  assistant_id: string;
  client: { type: string; ip: string; user_agent: string };
  referer: string;
  accept: string;
  metadata: Record<string, unknown>;
  authorized: AuthorizedInfo;
}

export interface AuthorizedInfo {
  sub?: string;
  client_id?: string;
  scope?: string;
  session_id?: string;
  user_id?: string;
  team_id?: string;
  tenant_id?: string;
  remember_me?: boolean;
  constraints?: {
    owner_only?: boolean;
    creator_only?: boolean;
    editor_only?: boolean;
    team_only?: boolean;
    extra?: Record<string, unknown>;
  };
}

/** The `--ctx` file: every field the Yao design lists. */
export interface ContextFile {
  chat_id?: string;
  authorized?: AuthorizedInfo;
  metadata?: Record<string, unknown>;
  client?: { type?: string; user_agent?: string; ip?: string };
  locale?: string;
  referer?: string;
}

/** The report's `environment` block (Yao field names). */
export interface Environment {
  user_id: string;
  team_id: string;
  locale: string;
  client_type: string;
  client_ip: string;
  referer: string;
  accept: string;
}

/**
 * Who a run acts as, carried by the plan (`plan.context`): the report's environment and the context
 * each run hands its agent. The kernel applies no defaults of its own; `createRunPlan` builds Yao's.
 */
export interface PlanContext {
  /** The start event's `environment`. */
  readonly environment: Environment;
  /** The contexts of a run's cases, for the agent it resolved (`''` when none): a fresh object per call. */
  forAgent(assistantId: string): (testCase: { user?: string; team?: string }, chatId: string) => TestContext;
}
