import { formatValue } from './describe.js';

const VERB = /%([-+# 0]*)(\d+)?(?:\.(\d+))?([vsdfqtxXeEgGTbc%])/g;

/**
 * Yao's `log.Info("%s took %d ms", name, ms)` formats like Go's `fmt.Sprintf`. The common verbs are
 * honoured (`%v %+v %s %d %f %.2f %q %t %x %T %%`); objects print as JSON rather than Go's map syntax.
 * A verb without an argument prints Go's `%!v(MISSING)`; arguments left over are appended, space
 * separated, so nothing a script logs is lost.
 */
export function goFormat(format: unknown, args: readonly unknown[]): string {
  if (typeof format !== 'string') return [format, ...args].map(text).join(' ');
  let next = 0;
  const out = format.replace(
    VERB,
    (whole, flags: string, width: string | undefined, precision: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      if (next >= args.length) return `%!${verb}(MISSING)`;
      const value = args[next++];
      return pad(verbText(verb, value, flags, precision), width, flags);
    },
  );
  const extra = args.slice(next);
  return extra.length ? `${out} ${extra.map(text).join(' ')}` : out;
}

function verbText(verb: string, value: unknown, flags: string, precision: string | undefined): string {
  switch (verb) {
    case 'd':
      return typeof value === 'number' || typeof value === 'bigint'
        ? String(typeof value === 'number' ? Math.trunc(value) : value)
        : `%!d(${text(value)})`;
    case 'f':
    case 'e':
    case 'E':
    case 'g':
    case 'G': {
      if (typeof value !== 'number') return `%!${verb}(${text(value)})`;
      const digits = precision === undefined ? 6 : Number(precision);
      if (verb === 'f') return value.toFixed(digits);
      if (verb === 'e' || verb === 'E') return cased(value.toExponential(digits), verb === 'E');
      return cased(precision === undefined ? String(value) : value.toPrecision(Math.max(1, digits)), verb === 'G');
    }
    case 'q':
      return JSON.stringify(typeof value === 'string' ? value : text(value));
    case 't':
      return typeof value === 'boolean' ? String(value) : `%!t(${text(value)})`;
    case 'x':
    case 'X': {
      const hex = typeof value === 'number' ? Math.trunc(value).toString(16) : Buffer.from(text(value)).toString('hex');
      return verb === 'X' ? hex.toUpperCase() : hex;
    }
    case 'b':
      return typeof value === 'number' ? Math.trunc(value).toString(2) : `%!b(${text(value)})`;
    case 'c':
      return typeof value === 'number' ? String.fromCodePoint(value) : `%!c(${text(value)})`;
    case 'T':
      return value === null ? '<nil>' : Array.isArray(value) ? '[]interface {}' : typeof value;
    default: {
      // %v, %+v, %#v, %s
      const s = text(value);
      return precision !== undefined && verb === 's'
        ? s.slice(0, Number(precision))
        : flags.includes('#') && typeof value === 'string'
          ? JSON.stringify(value)
          : s;
    }
  }
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json;
    } catch {
      // circular or otherwise not JSON: fall back to the inspector
    }
  }
  return formatValue(value);
}

function pad(s: string, width: string | undefined, flags: string): string {
  if (!width) return s;
  const n = Number(width);
  if (s.length >= n) return s;
  if (flags.includes('-')) return s.padEnd(n);
  return flags.includes('0') && /^-?[\d.]+$/.test(s)
    ? s.startsWith('-')
      ? `-${s.slice(1).padStart(n - 1, '0')}`
      : s.padStart(n, '0')
    : s.padStart(n);
}

function cased(s: string, upper: boolean): string {
  return upper ? s.toUpperCase() : s;
}
