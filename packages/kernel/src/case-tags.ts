import { didYouMean } from './did-you-mean.js';
import { AgentestError } from './errors.js';
import type { RunPlan, TagFilter } from './types/run.js';
import type { TestCase } from './types/test-case.js';

/** Whether a case's tags pass the filter: any wanted tag (OR), and no excluded one (AND NOT). */
export function tagsSelect(filter: TagFilter, tags: readonly string[] | undefined): boolean {
  const own = tags ?? [];
  if (filter.exclude.some((tag) => own.includes(tag))) return false;
  return filter.include.length === 0 || filter.include.some((tag) => own.includes(tag));
}

/**
 * A wanted tag that no case of the suite has is a typo or a tag of another suite: an error naming it and
 * the tags the suite does have, like a `--run` pattern that matches nothing.
 */
export function checkTagsKnown(plan: RunPlan, known: ReadonlySet<string>): void {
  const missing = plan.tags?.include.find((tag) => !known.has(tag));
  if (missing === undefined) return;
  const names = [...known].sort();
  const listed = names.length ? `; tags in this suite: ${names.join(', ')}` : '; no case of this suite has tags';
  throw new AgentestError('NO_CASES', `no case has tag "${missing}"${didYouMean(missing, names)}${listed}`, {
    where: '--tag',
  });
}

/** Adds a case's tags to the set of tags the suite uses. */
export function collectTags(known: Set<string>, testCase: TestCase): void {
  for (const tag of testCase.tags ?? []) known.add(tag);
}
