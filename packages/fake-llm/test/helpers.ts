/** Small fetch helpers for exercising the fake server exactly as an HTTP client would. */

/**
 * A reply that has not come by then sat out a delay it should have skipped: only a hang catcher, never a speed budget.
 */
export const HANG_MS = 30_000;

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export function chat(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: text },
    ],
    ...extra,
  };
}

/** The `data:` payloads of an SSE body, with each event's name when it has one. */
export function sseData(text: string): { event?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event, data };
    });
}
