import type { TestContext } from '@agentest/kernel';

/**
 * The `ctx` a script test receives: the seed's `agent.Context` (`User.ID`, `Team.ID`, `Locale`,
 * `Client`, `Metadata`, `ChatID`, `AssistantID`) and the lowercase fields real Yao scripts read
 * (`authorized.user_id`, `chat_id`, `client.type`, …). Both shapes come from one `TestContext`, which
 * the kernel built with the seed's priority (`--ctx` file over `-u/-t` over defaults), and share one
 * metadata object, so a test that writes `ctx.Metadata.x` reads it back as `ctx.metadata.x`.
 */
export interface ScriptContext {
  User: { ID: string };
  Team: { ID: string };
  Locale: string;
  Client: { Type: string; IP: string; UserAgent: string };
  Metadata: Record<string, unknown>;
  ChatID: string;
  AssistantID: string;
  chat_id: string;
  assistant_id: string;
  locale: string;
  theme: string;
  route: string;
  referer: string;
  accept: string;
  client: { type: string; user_agent: string; ip: string };
  metadata: Record<string, unknown>;
  authorized: TestContext['authorized'];
}

export function scriptContext(
  context: TestContext,
  ids: { chatId?: string; assistantId?: string } = {},
): ScriptContext {
  const metadata = structuredClone(context.metadata ?? {});
  const chatId = ids.chatId ?? context.chat_id;
  const assistantId = ids.assistantId ?? context.assistant_id;
  return {
    User: { ID: context.user_id },
    Team: { ID: context.team_id },
    Locale: context.locale,
    Client: { Type: context.client.type, IP: context.client.ip, UserAgent: context.client.user_agent },
    Metadata: metadata,
    ChatID: chatId,
    AssistantID: assistantId,
    chat_id: chatId,
    assistant_id: assistantId,
    locale: context.locale,
    theme: '',
    route: '',
    referer: context.referer,
    accept: context.accept,
    client: { type: context.client.type, user_agent: context.client.user_agent, ip: context.client.ip },
    metadata,
    authorized: structuredClone(context.authorized ?? {}),
  };
}
