import { AgentestError, type Agent, type AgentRef } from '@agentest/kernel';
import { didYouMean } from '@agentest/kernel/errors';
import { loadConnectors } from './load-connectors.js';
import { adapterToAgent } from './adapter.js';
import type { AgentDefinition } from './define.js';
import { echoAgent } from './echo.js';
import { loadMockAgent } from './mock.js';
import type { AgentEntry, ValidatedOptions } from './options.js';

/** Agent ids of this form name a connector, not an agent. */
const CONNECTOR_PREFIX = 'connector:';

/**
 * Finds agents by id: config agents first (so a config key may shadow a built-in), then `echo` and
 * `mock`. Each agent is built once per run and shared by every case; the ones it built are closed
 * at teardown. An unknown id resolves to undefined so that another resolver can try.
 */
export class AgentResolver {
  private readonly built = new Map<string, Promise<Agent>>();

  constructor(private readonly options: ValidatedOptions) {}

  resolve(ref: AgentRef, cwd: string): Promise<Agent> | undefined {
    const id = ref.id;
    if (!id) return undefined;
    const entry = this.options.agents.get(id);
    if (entry) return this.once(`agent\0${id}\0${ref.connector ?? ''}`, () => this.build(id, entry, ref.connector));
    if (id.startsWith(CONNECTOR_PREFIX) && this.options.connectors[id.slice(CONNECTOR_PREFIX.length)])
      return this.once(`connector\0${id}`, () => this.connectorAgent(id));
    if (id === 'echo') return Promise.resolve(echoAgent);
    if (id === 'mock' || id.startsWith('mock:')) {
      const explicit = id.slice('mock:'.length) || undefined;
      return this.once(`mock\0${explicit ?? ''}\0${ref.path ?? ''}\0${cwd}`, () =>
        loadMockAgent(explicit, ref.path, cwd),
      );
    }
    return undefined;
  }

  /**
   * The last word on an id no resolver knew: what the config declares and what is built in, with a
   * "did you mean". The user already passed the id, so the message lists choices instead of telling
   * them to pass one.
   */
  notFound(ref: AgentRef): undefined {
    if (!ref.id) return undefined;
    if (ref.id.startsWith(CONNECTOR_PREFIX)) {
      const id = ref.id.slice(CONNECTOR_PREFIX.length);
      const known = Object.keys(this.options.connectors);
      throw new AgentestError(
        'CONNECTOR_NOT_FOUND',
        `no connector "${id}"${didYouMean(id, known)} in the config's connectors (${known.join(', ') || 'none'}) or the Yao app's connectors/`,
        { where: ref.id },
      );
    }
    const configured = [...this.options.agents.keys()];
    const known = [...configured, 'echo', 'mock'];
    const listed = configured.length ? `config agents: ${configured.join(', ')}` : 'the config declares no agents';
    throw new AgentestError(
      'AGENT_NOT_FOUND',
      `could not find agent "${ref.id}"${didYouMean(ref.id, known)}; ${listed}; built-ins: echo, mock, mock:<file>; or give a Yao assistant id`,
      { where: '-n' },
    );
  }

  /** Closes every agent built during the run; all are closed even when one fails. */
  async closeAll(): Promise<void> {
    const pending = [...this.built.values()];
    this.built.clear();
    const results = await Promise.allSettled(
      pending.map(async (agent) => (await agent.catch(() => undefined))?.close?.()),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private once(key: string, build: () => Promise<Agent> | Agent): Promise<Agent> {
    let agent = this.built.get(key);
    if (!agent) {
      agent = Promise.resolve().then(build);
      // A failed build is a config error that ends the run; forget it so a later run retries.
      agent.catch(() => this.built.delete(key));
      this.built.set(key, agent);
    }
    return agent;
  }

  /** `connector:<id>`: a config connector as a bare agent (a judge with agentest's own prompt). */
  private async connectorAgent(agentId: string): Promise<Agent> {
    const connectorId = agentId.slice(CONNECTOR_PREFIX.length);
    const { createChatClient, connectorAgent } = await loadConnectors();
    return connectorAgent(agentId, createChatClient(connectorId, this.options.connectors[connectorId]!));
  }

  private async build(id: string, entry: AgentEntry, connectorOverride: string | undefined): Promise<Agent> {
    switch (entry.shape) {
      case 'adapter':
        return adapterToAgent(id, entry.value);
      case 'agent':
        return keyedAgent(id, entry.value);
      case 'connector': {
        const connectorId = connectorOverride ?? entry.value.connector;
        const config = this.options.connectors[connectorId];
        if (!config) {
          const known = Object.keys(this.options.connectors).join(', ') || 'none';
          throw new AgentestError(
            'CONNECTOR_NOT_FOUND',
            `-c ${connectorId}: no connector "${connectorId}" in the config's connectors (known: ${known})`,
            { where: '-c' },
          );
        }
        const { createChatClient, connectorAgent } = await loadConnectors();
        const client = createChatClient(connectorId, config);
        return connectorAgent(id, client, { prompts: entry.value.prompts, options: entry.value.options });
      }
    }
  }
}

/**
 * A user's agent under its config key. It is wrapped rather than copied, so class instances keep
 * their prototype and `this`.
 */
function keyedAgent(id: string, agent: AgentDefinition): Agent {
  return {
    id,
    ...(agent.connector ? { connector: agent.connector } : {}),
    ...(agent.path ? { path: agent.path } : {}),
    run: (messages, ctx, signal, call) => agent.run(messages, ctx, signal, call),
    ...(agent.close ? { close: () => agent.close!() } : {}),
  };
}
