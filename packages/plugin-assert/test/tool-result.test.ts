import type { ToolCall } from '@agentest/kernel';
import { testAssertion } from './helpers.js';

const calls: ToolCall[] = [
  {
    name: 'mcp__lookup',
    result: { status: 'found', user: { id: 42, name: 'Ada Lovelace', roles: ['admin'] }, count: 3 },
  },
  { name: 'broken', error: 'connection refused' },
  { name: 'retry', error: 'timeout' },
  { name: 'retry', result: 'ok after retry' },
];

testAssertion({
  type: 'tool_result',
  accept: [
    { output: '', toolCalls: calls, value: { tool: 'lookup' }, description: 'no result: the call succeeded' },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'lookup', result: { status: 'found' } },
      description: 'a partial object',
    },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'lookup', result: { user: { name: 'regex:^Ada' } } },
      description: 'a nested regex',
    },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'lookup', result: { user: { id: '42' } } },
      description: 'a string equals the text of a number',
    },
    { output: '', toolCalls: calls, value: { tool: 'lookup', result: { user: { roles: ['admin'] }, count: 3 } } },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'retry', result: 'regex:(?i)OK' },
      description: 'a later successful call counts',
    },
  ],
  reject: [
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'lookup', result: { status: 'missing' } },
      reason: /^tool 'lookup' result does not match expected \{"status":"missing"\}, got \{"count":3,/,
    },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'lookup', result: { user: { email: 'x' } } },
      reason: /does not match/,
      description: 'a key the result lacks',
    },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'lookup', result: { user: { name: 'regex:(' } } },
      reason: /does not match/,
      description: 'an invalid regex never matches',
    },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'broken' },
      reason: "tool 'broken' returned error: connection refused",
    },
    {
      output: '',
      toolCalls: calls,
      value: { tool: 'absent' },
      reason: "tool 'absent' was not called, called: mcp__lookup, broken, retry, retry",
    },
    { output: '', toolCalls: [], value: { tool: 'lookup' }, reason: 'no tools were called' },
  ],
  unjudged: [
    {
      output: '',
      toolCalls: calls,
      value: 'lookup',
      reason: /^invalid tool_result assertion: "value" must be \{"tool"/,
    },
  ],
});
