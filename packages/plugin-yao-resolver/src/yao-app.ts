import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import type { ConnectorConfig } from '@agentest/connectors';
import { AgentSettings } from './agent-settings.js';
import { loadAssistant, type AssistantDefinition } from './assistant-definition.js';
import type { ChatClient, ChatClientFactory } from './chat-client.js';
import { ConnectorRegistry } from './connector-registry.js';
import { McpClients } from './mcp-clients.js';
import { McpRegistry } from './mcp-registry.js';
import { loadPromptFile, type Prompt } from './prompts.js';

/**
 * One Yao application: its connectors, its `agent/agent.yml` roles, its global prompts and the
 * assistants read so far. Everything is read once per run and shared by every case (and by
 * delegation between assistants).
 */
export class YaoApp {
  private readonly assistants = new Map<string, Promise<AssistantDefinition>>();
  private readonly clients = new Map<string, ChatClient>();
  private globalPromptsLoaded?: Promise<Prompt[] | undefined>;
  /** The app's MCP servers (`mcps/**` and the assistants' own `mcps/`). */
  readonly mcp: McpRegistry;
  /** Connections to those of them that run outside agentest (stdio, sse, http). */
  readonly mcpClients: McpClients;

  private constructor(
    readonly root: string | undefined,
    readonly connectors: ConnectorRegistry,
    readonly settings: AgentSettings,
    readonly env: NodeJS.ProcessEnv,
    private readonly createClient: () => Promise<ChatClientFactory>,
  ) {
    this.mcp = new McpRegistry(root);
    this.mcpClients = new McpClients(env, root ?? process.cwd());
  }

  static async open(
    root: string | undefined,
    options: {
      connectors?: Record<string, ConnectorConfig>;
      env: NodeJS.ProcessEnv;
      createClient: () => Promise<ChatClientFactory>;
    },
  ): Promise<YaoApp> {
    const [connectors, settings] = await Promise.all([
      ConnectorRegistry.load(root, options.connectors),
      AgentSettings.load(root),
    ]);
    return new YaoApp(root, connectors, settings, options.env, options.createClient);
  }

  assistant(dir: string, id: string): Promise<AssistantDefinition> {
    let definition = this.assistants.get(dir);
    if (!definition) {
      definition = loadAssistant(dir, id, this.env);
      definition.catch(() => this.assistants.delete(dir));
      this.assistants.set(dir, definition);
    }
    return definition;
  }

  /** `<root>/agent/prompts.yml`, prepended to every assistant's prompts unless disabled. */
  globalPrompts(): Promise<Prompt[] | undefined> {
    this.globalPromptsLoaded ??= (async () => {
      if (!this.root) return undefined;
      const file = join(this.root, 'agent', 'prompts.yml');
      return existsSync(file) ? loadPromptFile(file, join(this.root, 'agent')) : undefined;
    })();
    return this.globalPromptsLoaded;
  }

  /**
   * The chat client for a connector id, built once. Building checks the definition and its secrets,
   * so calling this while resolving turns a missing API key into a configuration error before any case.
   */
  async client(id: string, wantedBy: string): Promise<ChatClient> {
    const cached = this.clients.get(id);
    if (cached) return cached;
    const entry = this.connectors.get(id);
    if (!entry) throw this.connectors.notFound(id, wantedBy);
    let client: ChatClient;
    try {
      client = (await this.createClient())(id, entry.config, this.env);
    } catch (error) {
      // Name the file (or config key) that defines the connector, keeping the connector's own code.
      if (error instanceof AgentestError && !error.message.includes(entry.source)) {
        throw new AgentestError(error.code, `${entry.source}: ${error.message}`, {
          where: error.where ?? entry.source,
        });
      }
      throw error;
    }
    this.clients.set(id, client);
    return client;
  }

  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled([...clients.map((c) => c.close?.()), this.mcpClients.close()]);
  }
}
