/**
 * A reply's headers as fetch's `Headers` shows them (names matched without regard to case, repeated
 * headers joined with ", ", iteration sorted by lower-case name, read-only as a fetch response's are),
 * read straight from Node's raw `[name, value, …]` list.
 *
 * The SDKs read a handful of them per call (content type and length, the request id, `Retry-After` on
 * errors) and list them all once for a log line that is usually off; a fetch `Headers` validates,
 * lower-cases and stores every header first, and Node's own `res.headers` object is built on first
 * read too, both for a few lookups in a list of ten. The list is kept in a private field, so nothing
 * that copies the object's own properties (the SDKs' debug formatting) walks it.
 */
export class ReplyHeaders {
  readonly #raw: readonly string[];

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const wanted = name.toLowerCase();
    const raw = this.#raw;
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2)
      if (sameName(raw[i]!, wanted)) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    return value;
  }

  has(name: string): boolean {
    return rawHeader(this.#raw, name.toLowerCase()) !== null;
  }

  getSetCookie(): string[] {
    const raw = this.#raw;
    const cookies: string[] = [];
    for (let i = 0; i < raw.length; i += 2) if (sameName(raw[i]!, 'set-cookie')) cookies.push(raw[i + 1]!);
    return cookies;
  }

  forEach(callback: (value: string, name: string, parent: ReplyHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#list()) callback.call(thisArg, value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#list()[Symbol.iterator]();
  }

  keys(): IterableIterator<string> {
    return this.#list()
      .map(([name]) => name)
      [Symbol.iterator]();
  }

  values(): IterableIterator<string> {
    return this.#list()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  append(): void {
    throw immutable();
  }

  set(): void {
    throw immutable();
  }

  delete(): void {
    throw immutable();
  }

  /** `[name, value]` sorted by lower-case name (stable), repeated names joined, except cookies. */
  #list(): [string, string][] {
    const raw = this.#raw;
    const pairs: [string, string][] = [];
    for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
    // An insertion sort (stable): a reply has a dozen headers, and the built-in sort allocates a work area.
    for (let i = 1; i < pairs.length; i++) {
      const pair = pairs[i]!;
      let j = i - 1;
      for (; j >= 0 && pairs[j]![0] > pair[0]; j--) pairs[j + 1] = pairs[j]!;
      pairs[j + 1] = pair;
    }
    const list: [string, string][] = [];
    for (const pair of pairs) {
      const last = list[list.length - 1];
      if (last?.[0] === pair[0] && pair[0] !== 'set-cookie') last[1] = `${last[1]}, ${pair[1]}`;
      else list.push(pair);
    }
    return list;
  }
}

/** The first value of the header `name` (lower-case) in a raw `[name, value, …]` list, or null. */
export function rawHeader(raw: readonly string[], name: string): string | null {
  for (let i = 0; i < raw.length; i += 2) if (sameName(raw[i]!, name)) return raw[i + 1]!;
  return null;
}

/** Whether a header name as sent matches a lower-case one; the length check spares most comparisons. */
function sameName(sent: string, lowerCase: string): boolean {
  return sent.length === lowerCase.length && (sent === lowerCase || sent.toLowerCase() === lowerCase);
}

function immutable(): TypeError {
  return new TypeError('immutable: the headers of a reply cannot be changed');
}
