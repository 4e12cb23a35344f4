import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colourWanted } from '../src/index.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

test('colour follows the terminal, NO_COLOR turns it off, FORCE_COLOR decides when set', () => {
  assert.equal(colourWanted(tty, {}), true);
  assert.equal(colourWanted(pipe, {}), false);
  assert.equal(colourWanted(tty, { NO_COLOR: '1' }), false);
  // An empty NO_COLOR is not set (no-color.org).
  assert.equal(colourWanted(tty, { NO_COLOR: '' }), true);
  assert.equal(colourWanted(tty, { NO_COLOR: '1', FORCE_COLOR: '1' }), false);
  for (const on of ['', '1', '2', '3', 'true'])
    assert.equal(colourWanted(pipe, { FORCE_COLOR: on }), true, `FORCE_COLOR=${on}`);
  for (const off of ['0', 'false']) {
    assert.equal(colourWanted(pipe, { FORCE_COLOR: off }), false, `FORCE_COLOR=${off} on a pipe`);
    assert.equal(colourWanted(tty, { FORCE_COLOR: off }), false, `FORCE_COLOR=${off} on a terminal`);
  }
});
