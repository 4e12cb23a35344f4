import { join, relative, resolve, sep } from 'node:path';
import { AgentestError, type Agent, type AgentRef } from '@agentest/kernel';
import { findAppRoot, startDirectory } from './app-root.js';
import { AssistantAgent, type AssistantServices } from './assistant-agent.js';
import { offerTools } from './assistant-tools.js';
import { ROLE_PREFIX } from './connector-choice.js';
import { acquireHookPool, loadChatClientFactory } from './dependencies.js';
import { HookRunner } from './hook-runner.js';
import { HookRuntimes } from './hook-runtime.js';
import type { ServerUse } from './mcp-config.js';
import { toolBackends } from './tool-backends.js';
import { deriveAgentId, locateById, locateFromPath, looksLikeAssistantId, PACKAGE_FILE } from './locate.js';
import type { ValidatedOptions } from './options.js';
import { formatSearch, searchReport } from './search.js';
import { YaoApp } from './yao-app.js';

/** Agent ids of this form name a connector, not an assistant. */
const CONNECTOR_PREFIX = 'connector:';

interface Located {
  dir: string;
  id: string;
  root?: string;
}

/**
 * Finds Yao assistants for agent references and builds them into agents. `-n id` looks under
 * `<app root>/assistants/`; without `-n`, the nearest package.yao at or above the input file (or the
 * working directory) wins. Unknown references resolve to undefined so that other resolvers can try.
 */
export class YaoResolver {
  private readonly apps = new Map<string, Promise<YaoApp>>();
  private readonly hooks: HookRunner;
  private readonly runtimes: HookRuntimes;

  constructor(private readonly options: ValidatedOptions) {
    this.runtimes = new HookRuntimes(options.processes);
    this.hooks = new HookRunner(
      () => acquireHookPool(options.sandbox),
      options.hookTimeoutMs,
      (file) => this.runtimes.for(file),
    );
  }

  async resolve(ref: AgentRef, cwd: string): Promise<Agent | undefined> {
    if (ref.id?.startsWith(CONNECTOR_PREFIX)) return this.connectorAgent(ref.id, ref, cwd);
    const found = this.locate(ref, cwd);
    if (!found) return undefined;
    const app = await this.app(found.root);
    // A `use::<role>` value is resolved through agent.yml by the assistant's connector chain.
    if (ref.connector && !ref.connector.startsWith(ROLE_PREFIX) && !app.connectors.get(ref.connector))
      throw app.connectors.notFound(ref.connector, '-c');
    const agent = await this.agent(app, found, cwd, ref.connector);
    // Build the client now: a bad connector or a missing API key stops the run before any case.
    if (agent.usesLlm && agent.connector)
      await app.client(agent.connector, agent.connectorBlame ?? join(found.dir, PACKAGE_FILE));
    return agent;
  }

  /**
   * The last resolver in line: when no plugin knew the reference and it points into a Yao app, say
   * where we looked and what exists, instead of the kernel's generic message.
   */
  async notFound(ref: AgentRef, cwd: string): Promise<undefined> {
    if (ref.id && !looksLikeAssistantId(ref.id)) return undefined;
    const root = this.rootOption(cwd);
    const report = await searchReport(ref, { ...(root ? { root } : {}), cwd, env: this.options.env });
    const detail = formatSearch(ref, report);
    if (!detail) return undefined;
    const what = ref.id ? `agent "${ref.id}"` : `an assistant for ${ref.path ?? cwd}`;
    const configAgents = this.options.configAgents.length
      ? `a config agent (${this.options.configAgents.join(', ')})`
      : 'a config agent';
    const hint = ref.id
      ? `use one of the assistants listed, ${configAgents}, or a built-in (echo, mock)`
      : 'run from inside an assistant directory or pass -n <assistant-id>';
    throw new AgentestError(
      'AGENT_NOT_FOUND',
      `could not find ${what}: ${detail}${detail.endsWith('?') ? '' : '.'} ${hint[0]!.toUpperCase()}${hint.slice(1)}.`,
      { where: ref.id ? '-n' : (ref.path ?? cwd) },
    );
  }

  async close(): Promise<void> {
    const apps = [...this.apps.values()];
    this.apps.clear();
    await Promise.allSettled([
      this.hooks.close(),
      ...apps.map(async (app) => (await app.catch(() => undefined))?.close()),
    ]);
  }

  /**
   * `connector:<id>`: one of the app's connectors as a bare agent (a judge with agentest's own
   * prompt). The caller's model parameters (`llm`) go with every request.
   */
  private async connectorAgent(agentId: string, ref: AgentRef, cwd: string): Promise<Agent | undefined> {
    const id = agentId.slice(CONNECTOR_PREFIX.length);
    for (const root of this.candidateRoots(ref, cwd)) {
      const app = await this.app(root);
      if (!app.connectors.get(id)) continue;
      const client = await app.client(id, agentId);
      return {
        id: agentId,
        connector: id,
        run: (messages, _ctx, signal, call) =>
          client.chat({ messages, ...(call?.llm ? { options: call.llm } : {}) }, signal),
      };
    }
    return undefined;
  }

  private locate(ref: AgentRef, cwd: string): Located | undefined {
    const start = ref.path ? resolve(cwd, ref.path) : cwd;
    if (ref.id) {
      if (!looksLikeAssistantId(ref.id)) return undefined;
      for (const root of this.candidateRoots(ref, cwd)) {
        const dir = locateById(root, ref.id);
        if (dir) return { dir, id: ref.id, root };
      }
      return undefined;
    }
    const appRoot = findAppRoot(start, { root: this.rootOption(cwd), env: this.options.env })?.dir;
    const inside = appRoot && !relative(appRoot, startDirectory(start)).startsWith('..');
    const { dir } = locateFromPath(start, inside ? appRoot : undefined);
    if (!dir) return undefined;
    const root = inside ? appRoot : (findAppRoot(dir, { env: {} })?.dir ?? rootAboveAssistants(dir));
    return { dir, id: deriveAgentId(dir, root), ...(root ? { root } : {}) };
  }

  /** App roots an id may live in: the `root` option; else the input's app, then the working directory's. */
  private candidateRoots(ref: AgentRef, cwd: string): string[] {
    const root = this.rootOption(cwd);
    if (root) return [root];
    const starts = ref.path ? [resolve(cwd, ref.path), cwd] : [cwd];
    const roots = starts
      .map((start) => findAppRoot(start, { env: this.options.env })?.dir)
      .filter((r): r is string => Boolean(r));
    return [...new Set(roots)];
  }

  private rootOption(cwd: string): string | undefined {
    return this.options.root ? resolve(cwd, this.options.root) : undefined;
  }

  private app(root: string | undefined): Promise<YaoApp> {
    const key = root ?? '';
    let app = this.apps.get(key);
    if (!app) {
      app = YaoApp.open(root, {
        connectors: this.options.connectors,
        env: this.options.env,
        createClient: loadChatClientFactory,
      });
      app.catch(() => this.apps.delete(key));
      this.apps.set(key, app);
    }
    return app;
  }

  private async agent(app: YaoApp, found: Located, cwd: string, connectorOverride?: string): Promise<AssistantAgent> {
    const definition = await app.assistant(found.dir, found.id);
    if (definition.hookFile) {
      this.runtimes.register(definition.hookFile, app.root, cwd);
      // Resolving happens before the first case: the sandbox's start-up is not counted in any case's time.
      await this.hooks.warm([definition.hookFile]);
    }
    const backends = toolBackends(this.hooks, this.runtimes, app.mcpClients, {
      ...(app.root ? { root: app.root } : {}),
      cwd,
    });
    const offer = (uses: ServerUse[], writer: string) =>
      offerTools(uses, app.mcp, definition, writer, backends.listExternal);
    // package.yao's tools are read now: a missing server or input schema stops the run before any case.
    const tools = definition.mcp ? await offer(definition.mcp.servers, join(found.dir, PACKAGE_FILE)) : undefined;
    const services: AssistantServices = {
      app,
      hooks: this.hooks,
      backends,
      offerTools: offer,
      assistant: async (id) => {
        const dir = app.root && looksLikeAssistantId(id) ? locateById(app.root, id) : undefined;
        if (!dir) {
          const where = app.root
            ? `no ${join(app.root, 'assistants', ...id.split('.'), PACKAGE_FILE)}`
            : 'the assistant is not inside a Yao app';
          throw new AgentestError('AGENT_NOT_FOUND', `delegate to "${id}" from "${found.id}": ${where}`);
        }
        return this.agent(app, { dir, id, root: app.root }, cwd);
      },
    };
    return new AssistantAgent(definition, services, connectorOverride, tools);
  }
}

/** `/x/app/assistants/a/b` → `/x/app`, for an assistant outside any marked app root. */
function rootAboveAssistants(dir: string): string | undefined {
  const segments = dir.split(sep);
  const at = segments.indexOf('assistants');
  return at > 0 ? segments.slice(0, at).join(sep) || sep : undefined;
}
