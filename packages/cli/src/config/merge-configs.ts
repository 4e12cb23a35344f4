/** Lists that add up across configs, as Vitest's `mergeConfig` and ESLint's `extends` treat plugins. */
const ADDITIVE = new Set(['plugins', 'reporters']);

/**
 * `override` laid over `base`, as `extends` merges configs:
 * - objects (`test`, `agents`, `connectors`, `thresholds`, plugin options…) are merged key by key, deeply;
 * - `plugins` and `reporters` are concatenated, the base's first; a plugin object both name is kept once,
 *   and a reporter the base names too (`'junit'`, `['junit', { … }]`) takes the base's place with the later
 *   entry's options;
 * - every other value, lists included (`test.suites`, `projects`, `files.allow`), is replaced;
 * - a key the override leaves `undefined` keeps the base's value.
 */
export function mergeConfigs(
  base: Record<string, unknown>,
  override: Record<string, unknown>,
): Record<string, unknown> {
  return mergeObjects(base, override, true);
}

function mergeObjects(
  base: Record<string, unknown>,
  override: Record<string, unknown>,
  topLevel: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const previous = out[key];
    if (topLevel && ADDITIVE.has(key) && Array.isArray(previous) && Array.isArray(value))
      out[key] =
        key === 'reporters'
          ? mergeReporters(previous, value)
          : [...previous, ...value.filter((p) => !previous.includes(p))];
    else if (isPlainObject(previous) && isPlainObject(value)) out[key] = mergeObjects(previous, value, false);
    else out[key] = value;
  }
  return out;
}

/** Reporters concatenated; one the base names too (by string or `[name, options]`) takes the base's place. */
function mergeReporters(base: readonly unknown[], override: readonly unknown[]): unknown[] {
  const out = [...base];
  for (const entry of override) {
    const name = reporterName(entry);
    // Only the base's entries are replaced: one config may name a reporter twice (two HTML files).
    const at = name === undefined ? -1 : base.findIndex((existing) => reporterName(existing) === name);
    if (at >= 0) out[at] = entry;
    else out.push(entry);
  }
  return out;
}

function reporterName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (Array.isArray(entry) && typeof entry[0] === 'string') return entry[0];
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
