import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelEntry } from '../../src/core/agent/model-catalog';
import { pickSamplingModel } from '../../src/core/sampling/sampling-model';
import { fromAnthropicMessage, toAnthropicRequest } from '../../src/core/sampling/sampling-anthropic';

const model = (id: string, line: string, createdAt: string, lifecycle: ModelEntry['lifecycle'] = 'active'): ModelEntry => ({
  id,
  name: id,
  line,
  createdAt,
  lifecycle,
  retiresAt: null,
  maxInputTokens: null,
  maxTokens: 1000,
});
const models = [
  model('claude-opus-5', 'opus', '2026-05-01'),
  model('claude-sonnet-5-5', 'sonnet', '2026-06-01'),
  model('claude-haiku-5', 'haiku', '2026-04-01'),
  model('claude-sonnet-3', 'sonnet', '2024-01-01', 'retired'),
];

describe('sampling: the model and the request', () => {
  test("hints first (a substring of an available id or a line), then priorities, then the chat's model", () => {
    assert.equal(pickSamplingModel({ hints: [{ name: 'gpt-4' }, { name: 'haiku' }] }, models, 'x'), 'claude-haiku-5');
    assert.equal(
      pickSamplingModel({ hints: [{ name: 'claude-sonnet-3' }] }, models, 'claude-sonnet-5-5'),
      'claude-sonnet-5-5',
      'a retired model is passed over',
    );
    assert.equal(pickSamplingModel({ intelligencePriority: 0.9, speedPriority: 0.2 }, models, 'x'), 'claude-opus-5');
    assert.equal(pickSamplingModel({ costPriority: 0.8 }, models, 'x'), 'claude-haiku-5');
    assert.equal(pickSamplingModel(undefined, models, 'claude-sonnet-5-5'), 'claude-sonnet-5-5');
    assert.equal(pickSamplingModel({ hints: [{ name: 'opus' }] }, [], 'fallback'), 'fallback');
  });

  test("tools and toolChoice reach the API; the reply keeps tool uses; the limit is the model's at most", () => {
    const body = toAnthropicRequest(
      {
        messages: [
          { role: 'user', content: { type: 'text', text: 'weather?' } },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get', input: { city: 'Paris' } }] },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'sunny' }] }] },
        ],
        maxTokens: 5000,
        systemPrompt: 'be brief',
        tools: [{ name: 'get', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
        toolChoice: { mode: 'required' },
      },
      'claude-haiku-5',
      1000,
    );
    assert.equal(body.max_tokens, 1000);
    assert.equal(body.system, 'be brief');
    assert.deepEqual(body.tool_choice, { type: 'any' });
    assert.equal(body.tools?.length, 1);
    assert.deepEqual(body.messages[2]?.content, [{ type: 'tool_result', tool_use_id: 't1', is_error: undefined, content: [{ type: 'text', text: 'sunny' }] }]);
    const reply = {
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-5',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      content: [
        { type: 'text', text: 'checking' },
        { type: 'tool_use', id: 't2', name: 'get', input: { city: 'Rome' } },
      ],
    } as never;
    assert.deepEqual(fromAnthropicMessage(reply, true), {
      role: 'assistant',
      model: 'claude-haiku-5',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'checking' },
        { type: 'tool_use', id: 't2', name: 'get', input: { city: 'Rome' } },
      ],
    });
    assert.deepEqual(fromAnthropicMessage(reply, false), {
      role: 'assistant',
      model: 'claude-haiku-5',
      stopReason: 'toolUse',
      content: { type: 'text', text: 'checking' },
    });
  });

  test('audio is refused with a reason rather than sent', () => {
    assert.throws(
      () =>
        toAnthropicRequest({ messages: [{ role: 'user', content: { type: 'audio', data: 'AA==', mimeType: 'audio/wav' } }], maxTokens: 10 }, 'm', undefined),
      /audio content/,
    );
  });
});
