/**
 * The keyword assistant's answer parser, called from the Next hook as the process
 * `agents.keyword.answer.Parse`: the model's JSON answer (an object, or JSON text, fenced or not) as
 * `{ keywords, need_search, confidence }`, or null when it is not that JSON.
 */

interface Keywords {
  keywords: string[];
  need_search: boolean;
  confidence: number | null;
}

export function Parse(content: unknown): Keywords | null {
  let value = content;
  if (typeof content === 'string') {
    const json = content.replace(/^\s*```(?:json)?\s*/i, '').replace(/\s*```\s*$/, '');
    try {
      value = JSON.parse(json);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object' || !Array.isArray((value as Keywords).keywords)) return null;
  const answer = value as Partial<Keywords>;
  const keywords = [...new Set(answer.keywords!.map((k) => String(k).trim()).filter(Boolean))];
  return {
    keywords,
    need_search: answer.need_search === true,
    confidence: typeof answer.confidence === 'number' ? answer.confidence : null,
  };
}
