const GO_FLAGS = /^\(\?([imsU]+)\)/;

/**
 * A regular expression from what a script passes to `Match`: a RegExp (from any realm) or a pattern
 * string. Go RE2's leading flag group (`(?i)`, `(?s)`, `(?m)`), common in Yao tests, becomes JS flags.
 * Throws SyntaxError for a bad pattern.
 */
export function toRegExp(pattern: unknown): RegExp {
  if (Object.prototype.toString.call(pattern) === '[object RegExp]') {
    const re = pattern as RegExp;
    return new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  }
  let source = String(pattern);
  let flags = '';
  const go = GO_FLAGS.exec(source);
  if (go) {
    source = source.slice(go[0].length);
    flags = [...new Set(go[1].replace('U', ''))].join('');
  }
  return new RegExp(source, flags);
}

/**
 * The path subset of Yao's `JSONPath` assertion: an optional `$`, dotted keys, `[index]` and
 * `['quoted key']`. Returns `{found: false}` when a step is missing.
 */
export function readPath(root: unknown, path: string): { found: boolean; value?: unknown } {
  let value = root;
  for (const step of parsePath(path)) {
    if (value === null || typeof value !== 'object') return { found: false };
    if (typeof step === 'number') {
      const list = value as unknown[];
      const index = step < 0 ? list.length + step : step;
      if (!Array.isArray(list) || index < 0 || index >= list.length) return { found: false };
      value = list[index];
    } else {
      if (!Object.prototype.hasOwnProperty.call(value, step)) return { found: false };
      value = (value as Record<string, unknown>)[step];
    }
  }
  return { found: true, value };
}

function parsePath(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const re = /\[\s*(-?\d+)\s*\]|\[\s*(['"])(.*?)\2\s*\]|\.?([^.[\]]+)/g;
  const body = path.trim().replace(/^\$/, '');
  let match: RegExpExecArray | null;
  while ((match = re.exec(body))) {
    if (match[1] !== undefined) steps.push(Number(match[1]));
    else if (match[3] !== undefined) steps.push(match[3]);
    else if (match[4] !== undefined) steps.push(match[4]);
  }
  return steps;
}
