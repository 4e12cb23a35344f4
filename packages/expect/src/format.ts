const MAX_LENGTH = 160;

/**
 * Renders a value for a failure message: strings quoted, `undefined`, `NaN` and `-0` spelled out
 * (JSON would print them as nothing, `null` and `0`), cycles marked, long values cut.
 */
export function show(value: unknown): string {
  const text = render(value, new WeakSet());
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}

function render(value: unknown, seen: WeakSet<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return value.toString();
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
    case 'boolean':
      return String(value);
  }
  if (value === null) return 'null';
  const object = value as object;
  if (seen.has(object)) return '[Circular]';
  seen.add(object);
  try {
    if (object instanceof Date) return `Date(${Number.isNaN(object.getTime()) ? 'Invalid' : object.toISOString()})`;
    if (object instanceof RegExp) return String(object);
    if (object instanceof Error) return `${object.name}(${JSON.stringify(object.message)})`;
    if (Array.isArray(object)) return `[${object.map((v) => render(v, seen)).join(', ')}]`;
    if (object instanceof Map)
      return `Map {${[...object].map(([k, v]) => `${render(k, seen)} => ${render(v, seen)}`).join(', ')}}`;
    if (object instanceof Set) return `Set {${[...object].map((v) => render(v, seen)).join(', ')}}`;
    const entries = Object.entries(object).map(
      ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${render(v, seen)}`,
    );
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  } finally {
    seen.delete(object);
  }
}

/** A rate in 0–1 as a percentage with one decimal: `0.6667` → `66.7%`. */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}
