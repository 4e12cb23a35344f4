import { AgentestError } from '@agentest/kernel/errors';
import type { TagFilter } from '@agentest/kernel';

/**
 * `--tag smoke --tag billing --tag '!slow'` as a filter: a case is selected when it has at least one of
 * the wanted tags (none wanted: every case) and none of the excluded ones.
 */
export function parseTagFilter(tags: readonly string[], where = '--tag'): TagFilter {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const written of tags) {
    const negated = written.trim().startsWith('!');
    const tag = negated ? written.trim().slice(1).trim() : written.trim();
    if (!tag)
      throw new AgentestError(
        'FLAG_INVALID',
        `${where} needs a tag name, got ${JSON.stringify(written)} (e.g. ${where} smoke, or ${where} '!slow' to leave slow cases out)`,
        { where },
      );
    (negated ? exclude : include).push(tag);
  }
  return { include, exclude };
}
