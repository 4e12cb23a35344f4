import type { ToolCall } from '@agentest/kernel';
import { testAssertion } from './helpers.js';

const calls: ToolCall[] = [
  {
    name: 'agents_expense_tools__setup',
    arguments: '{"user":"ada","limit":10,"filter":{"status":"open","team":"ops"}}',
    result: { ok: true },
  },
  { name: 'github.create_issue', arguments: { title: 'Bug', labels: ['bug'] } },
  { name: 'search', server: 'web', arguments: {} },
];

testAssertion({
  type: 'tool_called',
  accept: [
    { output: '', toolCalls: calls, value: 'agents_expense_tools__setup', description: 'the exact name' },
    { output: '', toolCalls: calls, value: 'setup', description: 'a suffix after __' },
    { output: '', toolCalls: calls, value: 'create_issue', description: 'a suffix after .' },
    { output: '', toolCalls: calls, value: 'web.search', description: 'server.name' },
    { output: '', toolCalls: calls, value: ['delete', 'setup'], description: 'any of a list' },
    {
      output: '',
      toolCalls: calls,
      value: { name: 'setup', arguments: { user: 'ada' } },
      description: 'arguments given as a JSON string, matched partially',
    },
    {
      output: '',
      toolCalls: calls,
      value: { name: 'setup', arguments: { filter: { status: 'open' } } },
      description: 'nested arguments match partially',
    },
    {
      output: '',
      toolCalls: calls,
      value: { name: 'setup', arguments: '{"limit": 10.0}' },
      description: 'expected arguments as a JSON string',
    },
    { output: '', toolCalls: calls, value: { name: 'create_issue', arguments: { labels: ['bug'] } } },
    {
      output: '',
      toolCalls: calls,
      value: [{ name: 'setup', arguments: { user: 'bob' } }, 'search'],
      description: 'a list mixing forms',
    },
    { output: '', toolCalls: calls, description: 'without a value, any call passes' },
  ],
  reject: [
    {
      output: '',
      toolCalls: calls,
      value: 'get',
      reason: "tool 'get' was not called, called: agents_expense_tools__setup, github.create_issue, search",
    },
    {
      output: '',
      toolCalls: [{ name: 'forget' }],
      value: 'get',
      reason: "tool 'get' was not called, called: forget",
      description: 'no plain-substring matching',
    },
    { output: '', toolCalls: [{ name: 'etup' }], value: 'setup', reason: /was not called/ },
    {
      output: '',
      toolCalls: calls,
      value: ['a', 'b'],
      reason:
        'none of the expected tools were called, called: agents_expense_tools__setup, github.create_issue, search',
    },
    {
      output: '',
      toolCalls: calls,
      value: { name: 'setup', arguments: { user: 'bob' } },
      reason: `tool 'setup' was not called with expected arguments {"user":"bob"}, got {"filter":{"status":"open","team":"ops"},"limit":10,"user":"ada"}`,
    },
    { output: '', toolCalls: [], value: 'setup', reason: 'no tools were called' },
    { output: '', toolCalls: [], reason: 'no tools were called', description: 'without a value and without calls' },
  ],
  unjudged: [
    { output: '', toolCalls: calls, value: 42, reason: /^invalid tool_called assertion: "value" must be a tool name/ },
    { output: '', toolCalls: calls, value: { arguments: {} }, reason: /^invalid tool_called assertion/ },
  ],
});
