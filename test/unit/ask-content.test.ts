// What a sampling card is given to show: a hostile request (megabytes of text, hundreds of messages or
// images) is cut to what a page can draw, and what was left out is said, never silently dropped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SamplingMessage } from '@modelcontextprotocol/sdk/types.js';
import { clientAskSchema } from '../../src/common/protocol';
import { samplingAsk } from '../../src/core/chat/ask-content';
import { viewAsker } from '../../src/core/sampling/view-asker';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function ask(messages: SamplingMessage[], extra: { systemPrompt?: string; server?: string } = {}) {
  return samplingAsk('a1', { server: 'hostile', messages, maxTokens: 10, model: 'claude-test', tools: [], alwaysLimit: 100_000, ...extra });
}

describe('the sampling card’s content', () => {
  test("a view's request says it is a view's (its Always is the view's); a server's does not", () => {
    const text: SamplingMessage[] = [{ role: 'user', content: { type: 'text', text: 'hi' } }];
    const byView = ask(text, { server: viewAsker('hostile') });
    assert.equal(byView.byView, true);
    assert.equal(byView.server, 'the view of hostile');
    assert.equal(clientAskSchema.safeParse(byView).success, true);
    assert.equal('byView' in ask(text), false);
  });

  test('a megabyte of text is cut with the count of what is left out; the card passes the protocol', () => {
    const card = ask([{ role: 'user', content: { type: 'text', text: 'x'.repeat(1_000_000) } }], { systemPrompt: 'y'.repeat(300_000) });
    const text = card.messages[0]!.content[0]!;
    assert.equal(text.type, 'text');
    assert.ok(text.type === 'text' && text.text.length <= 20_000 && /more characters\)$/.test(text.text));
    assert.ok(card.systemPrompt!.length <= 20_000);
    assert.equal(clientAskSchema.safeParse(card).success, true);
  });

  test('hundreds of messages and images: the last 50 messages, at most 4 images drawn, the rest named', () => {
    const many: SamplingMessage[] = Array.from({ length: 300 }, (_, i) => ({
      role: 'user',
      content: [
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'text', text: `m${i}` },
      ],
    }));
    const card = ask(many);
    assert.equal(card.messages.length, 51);
    assert.deepEqual(card.messages[0]!.content, [{ type: 'other', label: '250 earlier messages not shown' }]);
    const all = card.messages.flatMap((m) => m.content);
    assert.equal(all.filter((c) => c.type === 'image').length, 4);
    assert.ok(all.some((c) => c.type === 'other' && /not shown: a card draws at most 4/.test(c.label)));
    assert.equal(clientAskSchema.safeParse(card).success, true);
  });

  test('an image the page must not draw (SVG, not base64) is named, not sent; audio and tool blocks are named', () => {
    const card = ask([
      {
        role: 'user',
        content: [
          { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' },
          { type: 'image', mimeType: 'image/png', data: 'not base64!' },
          { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
        ],
      },
    ]);
    assert.deepEqual(card.messages[0]!.content, [
      { type: 'other', label: '[image, image/svg+xml, not shown]' },
      { type: 'other', label: '[image, image/png, not shown]' },
      { type: 'other', label: '[audio, audio/wav]' },
    ]);
  });
});
