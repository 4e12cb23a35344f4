import type { ContextFile, Environment, PlanContext, RunPlan, TestContext } from '@agentest/kernel';

/*
 * Yao's context policy: who a run acts as. The kernel hands each run the context its plan carries
 * (`plan.context`) and knows none of these defaults; `createRunPlan` builds this one from `-u`, `-t`
 * and the `--ctx` file.
 */

export const DEFAULT_ENVIRONMENT: Environment = {
  user_id: 'test-user',
  team_id: 'test-team',
  locale: 'en-us',
  client_type: 'test',
  client_ip: '127.0.0.1',
  referer: 'test',
  accept: 'standard',
};

export interface ContextInputs {
  /** `-u` / `-t`: the global override. */
  flags: { user?: string; team?: string };
  /** The `--ctx` file. */
  file?: ContextFile;
  /** The case's own `user` / `team`. */
  testCase?: { user?: string; team?: string };
  chatId: string;
  assistantId: string;
}

/**
 * The report's environment. Priority, highest first: `-u/-t`, the case's fields, the `--ctx` file,
 * the defaults (the seed's rule, with the ctx file between case and default as Yao's code does).
 */
export function buildEnvironment(inputs: Omit<ContextInputs, 'chatId' | 'assistantId'>): Environment {
  const file = inputs.file ?? {};
  return {
    user_id: inputs.flags.user || inputs.testCase?.user || file.authorized?.user_id || DEFAULT_ENVIRONMENT.user_id,
    team_id:
      inputs.flags.team ||
      inputs.testCase?.team ||
      file.authorized?.team_id ||
      file.authorized?.tenant_id ||
      DEFAULT_ENVIRONMENT.team_id,
    locale: file.locale || DEFAULT_ENVIRONMENT.locale,
    client_type: file.client?.type || DEFAULT_ENVIRONMENT.client_type,
    client_ip: file.client?.ip || DEFAULT_ENVIRONMENT.client_ip,
    referer: file.referer || DEFAULT_ENVIRONMENT.referer,
    accept: DEFAULT_ENVIRONMENT.accept,
  };
}

/**
 * The context an agent, hook or script sees. The identity follows the environment, then every
 * non-empty `authorized.*` field of the `--ctx` file overrides it: for the authorisation layer the
 * ctx file wins over `-u/-t`, as the seed's `--ctx` section states.
 */
export function buildTestContext(inputs: ContextInputs): TestContext {
  const env = buildEnvironment(inputs);
  const file = inputs.file ?? {};
  const authorized = {
    sub: env.user_id,
    user_id: env.user_id,
    team_id: env.team_id,
    tenant_id: env.team_id,
    ...stripEmpty(file.authorized ?? {}),
  };
  return {
    user_id: authorized.user_id ?? env.user_id,
    team_id: authorized.team_id ?? env.team_id,
    locale: env.locale,
    chat_id: file.chat_id || inputs.chatId,
    assistant_id: inputs.assistantId,
    client: { type: env.client_type, ip: env.client_ip, user_agent: file.client?.user_agent || 'agentest/1.0' },
    referer: env.referer,
    accept: env.accept,
    metadata: { ...(file.metadata ?? {}) },
    authorized,
  };
}

function stripEmpty<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Partial<T>;
}

/**
 * `buildTestContext` for many cases of one run: the parts every case without its own `user`/`team`
 * shares are worked out once. Each context is still a fresh object (nested objects too), so an agent
 * that changes its context cannot reach another case's.
 */
export function testContextFactory(
  inputs: Omit<ContextInputs, 'chatId' | 'testCase'>,
): (testCase: ContextInputs['testCase'], chatId: string) => TestContext {
  const shared = buildTestContext({ ...inputs, chatId: '' });
  const fileChatId = inputs.file?.chat_id;
  return (testCase, chatId) => {
    if (testCase?.user || testCase?.team) return buildTestContext({ ...inputs, testCase, chatId });
    return {
      ...shared,
      chat_id: fileChatId || chatId,
      client: { ...shared.client },
      metadata: { ...shared.metadata },
      authorized: { ...shared.authorized },
    };
  };
}

/**
 * The plan's `context` by Yao's rules: the report's environment, and for the run's agent a fresh
 * context per run, built from `-u`/`-t`, the case's `user`/`team` and the `--ctx` file. A script test
 * run (`scripts.*`, `script: true`) takes its identity from the `--ctx` file first (see `scriptIdentity`).
 */
export function yaoPlanContext(
  env: Pick<RunPlan['env'], 'user' | 'team' | 'ctx'>,
  options: { script?: boolean } = {},
): PlanContext {
  const flags = options.script ? scriptIdentity(env) : { user: env.user, team: env.team };
  return {
    environment: buildEnvironment({ flags, file: env.ctx }),
    forAgent: (assistantId) => testContextFactory({ flags, file: env.ctx, assistantId }),
  };
}

/**
 * Who a script test run acts as: the `--ctx` file's `authorized.user_id` and `team_id` (else
 * `tenant_id`) win over `-u`/`-t`, as the seed's script `--ctx` section states and Yao's script mode
 * does, so the header, the report and the tests' `ctx` all name the same identity.
 */
function scriptIdentity(env: Pick<RunPlan['env'], 'user' | 'team' | 'ctx'>): ContextInputs['flags'] {
  const authorized = stripEmpty(env.ctx?.authorized ?? {});
  const user = authorized.user_id || env.user;
  const team = authorized.team_id || authorized.tenant_id || env.team;
  return { ...(user ? { user } : {}), ...(team ? { team } : {}) };
}
