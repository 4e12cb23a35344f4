import type { RegisteredTest, TestData, TestFn } from './types.js';

/** A timeout in milliseconds, or `{ timeout, tags }` (`tags` select the test with `--tag`). */
export type TestOptions = number | { timeout?: number; tags?: string[] };

/** Options go last, or before the function as in Vitest: `test(name, { timeout: 5000 }, fn)`. */
export interface TestApi {
  (name: string, defOrFn: TestData | TestFn, options?: TestOptions): void;
  (name: string, options: TestOptions, fn: TestFn): void;
  skip(name: string, defOrFn?: TestData | TestFn, options?: TestOptions): void;
  skip(name: string, options: TestOptions, fn: TestFn): void;
  todo(name: string, ...ignored: unknown[]): void;
  only(name: string, defOrFn: TestData | TestFn, options?: TestOptions): void;
  only(name: string, options: TestOptions, fn: TestFn): void;
}

export interface Registry {
  test: TestApi;
  /** A copy of the registrations, in registration order. */
  getRegistered(): RegisteredTest[];
  /** Forgets every registration (agentest-kit had no way to). */
  clear(): void;
}

/**
 * A registry of `test()` calls. The sandbox builds one per evaluation of a test file, so nothing
 * registered by one file is seen by another; the main thread keeps one for `getRegistered()`.
 * `locate` names the registering file, when the caller can tell.
 */
export function createRegistry(locate?: () => string | undefined): Registry {
  const registered: RegisteredTest[] = [];

  const add = (mode: 'active' | 'skip' | 'only', name: unknown, defOrFn: unknown, options: unknown) => {
    const label = mode === 'active' ? 'test' : `test.${mode}`;
    checkName(label, name);
    if (typeof options === 'function') [defOrFn, options] = [options, optionsFirst(label, name, defOrFn)];
    if (defOrFn === undefined && mode !== 'skip') {
      throw new TypeError(
        `${label}(${JSON.stringify(name)}) needs a data object or a test function; use test.todo(${JSON.stringify(name)}) for a placeholder`,
      );
    }
    const timeoutMs = timeoutOf(label, name, options);
    const tags = tagsOf(label, name, options, defOrFn);
    registered.push({
      name,
      status: mode === 'skip' ? 'skip' : 'active',
      ...(mode === 'only' ? { only: true } : {}),
      ...normalize(label, name, defOrFn ?? (async () => {})),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(tags.length ? { tags } : {}),
      ...fileOf(locate),
    });
  };

  type Args = [defOrFn?: TestData | TestFn | TestOptions, options?: TestOptions | TestFn];
  const test: TestApi = Object.assign(
    (name: string, ...[defOrFn, options]: Args) => add('active', name, defOrFn, options),
    {
      skip: (name: string, ...[defOrFn, options]: Args) => add('skip', name, defOrFn, options),
      only: (name: string, ...[defOrFn, options]: Args) => add('only', name, defOrFn, options),
      todo: (name: string) => {
        checkName('test.todo', name);
        registered.push({ name, status: 'todo', fn: null, query: null, expected_keywords: [], ...fileOf(locate) });
      },
    },
  );

  return { test, getRegistered: () => [...registered], clear: () => void registered.splice(0) };
}

/**
 * Vitest's order, `test(name, { timeout, tags }, fn)`: the object before a function is the options
 * (a data test takes no function), so it may hold nothing else.
 */
function optionsFirst(label: string, name: string, options: unknown): unknown {
  const keys = typeof options === 'object' && options !== null ? Object.keys(options) : [];
  const extra = keys.find((key) => key !== 'timeout' && key !== 'tags');
  if (typeof options === 'number' || (typeof options === 'object' && options !== null && !extra)) return options;
  throw new TypeError(
    `${label}(${JSON.stringify(name)}, …, fn): ${extra ? `"${extra}" is not an option` : 'the options'} before the test function must be { timeout, tags } or a timeout in milliseconds; a data test ({ query, … }) takes no function`,
  );
}

function checkName(label: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '')
    throw new TypeError(`${label}() needs a name (a non-empty string) as its first argument, got ${typeof name}`);
}

function normalize(
  label: string,
  name: string,
  defOrFn: unknown,
): Pick<
  RegisteredTest,
  'fn' | 'query' | 'expected_keywords' | 'intent' | 'expected_behavior' | 'difficulty' | 'notes' | 'data'
> {
  if (typeof defOrFn === 'function') return { fn: defOrFn as TestFn, query: null, expected_keywords: [] };
  if (!defOrFn || typeof defOrFn !== 'object' || Array.isArray(defOrFn)) {
    throw new TypeError(
      `${label}(${JSON.stringify(name)}, …): the second argument must be a data object ({ query, expected_keywords, … }) or an async (ctx) => {} function`,
    );
  }
  const data = defOrFn as TestData;
  if (
    data.expected_keywords !== undefined &&
    !(Array.isArray(data.expected_keywords) && data.expected_keywords.every((k) => typeof k === 'string'))
  ) {
    throw new TypeError(`${label}(${JSON.stringify(name)}, …): expected_keywords must be an array of strings`);
  }
  const text = (key: 'intent' | 'expected_behavior' | 'difficulty' | 'notes') =>
    typeof data[key] === 'string' ? { [key]: data[key] } : {};
  return {
    fn: null,
    query: typeof data.query === 'string' && data.query ? data.query : null,
    expected_keywords: data.expected_keywords ?? [],
    ...text('intent'),
    ...text('expected_behavior'),
    ...text('difficulty'),
    ...text('notes'),
    data: { ...data },
  };
}

function timeoutOf(label: string, name: string, options: unknown): number | undefined {
  const value = typeof options === 'object' && options !== null ? (options as { timeout?: unknown }).timeout : options;
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new TypeError(
    `${label}(${JSON.stringify(name)}, …, options): the timeout must be a number of milliseconds > 0`,
  );
}

/** The options' `tags` and a data test's own `tags` field, each a list of non-empty strings. */
function tagsOf(label: string, name: string, options: unknown, defOrFn: unknown): string[] {
  const lists = [
    typeof options === 'object' && options !== null ? (options as { tags?: unknown }).tags : undefined,
    typeof defOrFn === 'object' && defOrFn !== null ? (defOrFn as { tags?: unknown }).tags : undefined,
  ];
  const tags: string[] = [];
  for (const list of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((tag) => typeof tag === 'string' && tag.trim() !== ''))
      throw new TypeError(
        `${label}(${JSON.stringify(name)}, …): tags must be an array of non-empty strings, e.g. { tags: ['smoke'] }`,
      );
    for (const tag of list as string[]) if (!tags.includes(tag.trim())) tags.push(tag.trim());
  }
  return tags;
}

function fileOf(locate: (() => string | undefined) | undefined): { file?: string } {
  const file = locate?.();
  return file ? { file } : {};
}
