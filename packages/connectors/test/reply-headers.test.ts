import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawHeader, ReplyHeaders } from '../src/reply-headers.js';

/** Node's raw list as a server might send it: mixed case, a repeated header, cookies. */
const RAW = [
  'Content-Type',
  'application/json',
  'X-Request-Id',
  'req_1',
  'Vary',
  'Accept',
  'vary',
  'Origin',
  'Set-Cookie',
  'a=1',
  'set-cookie',
  'b=2',
  'retry-after',
  '2',
];

describe('ReplyHeaders', () => {
  it('reads as fetch Headers do: any case, repeated headers joined with ", "', () => {
    const headers = new ReplyHeaders(RAW);
    const fetchHeaders = new Headers();
    for (let i = 0; i < RAW.length; i += 2) fetchHeaders.append(RAW[i]!, RAW[i + 1]!);
    for (const name of ['content-type', 'X-REQUEST-ID', 'vary', 'Retry-After', 'set-cookie', 'x-missing']) {
      assert.equal(headers.get(name), fetchHeaders.get(name), name);
      assert.equal(headers.has(name), fetchHeaders.has(name), name);
    }
    assert.deepEqual(headers.getSetCookie(), fetchHeaders.getSetCookie());
  });

  it('lists its headers as fetch Headers do: sorted lower-case names, cookies one by one', () => {
    const headers = new ReplyHeaders(RAW);
    const fetchHeaders = new Headers();
    for (let i = 0; i < RAW.length; i += 2) fetchHeaders.append(RAW[i]!, RAW[i + 1]!);
    assert.deepEqual([...headers], [...fetchHeaders]);
    assert.deepEqual([...headers.entries()], [...fetchHeaders.entries()]);
    assert.deepEqual([...headers.keys()], [...fetchHeaders.keys()]);
    assert.deepEqual([...headers.values()], [...fetchHeaders.values()]);
    const seen: string[] = [];
    headers.forEach((value, name) => seen.push(`${name}=${value}`));
    assert.deepEqual(
      seen,
      [...fetchHeaders].map(([name, value]) => `${name}=${value}`),
    );
  });

  it('is read-only, like the headers of a fetch response, and shows no header as an own property', () => {
    const headers = new ReplyHeaders(RAW);
    assert.throws(() => headers.append(), TypeError);
    assert.throws(() => headers.set(), TypeError);
    assert.throws(() => headers.delete(), TypeError);
    assert.deepEqual(Object.entries(headers), []);
    assert.equal(Object.prototype.toString.call(headers), '[object Headers]');
  });

  it('rawHeader finds the first value of a lower-case name in any case', () => {
    assert.equal(rawHeader(RAW, 'content-type'), 'application/json');
    assert.equal(rawHeader(RAW, 'vary'), 'Accept');
    assert.equal(rawHeader(RAW, 'location'), null);
  });
});
