// An MCP prompt becomes conversation messages: roles kept and alternating, embedded resources and images as blocks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { composerText, promptConversation } from '../../src/core/chat/prompt-messages';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('prompt messages into the conversation', () => {
  test('roles are kept, consecutive ones joined; resources, images and links become blocks naming them', () => {
    const result: GetPromptResult = {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review a.md.' } },
        { role: 'assistant', content: { type: 'text', text: 'Which parts?' } },
        { role: 'user', content: { type: 'text', text: 'All of it:' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'notes://a.md', mimeType: 'text/markdown', text: '# A' } } },
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: PNG } },
        { role: 'user', content: { type: 'resource_link', uri: 'notes://readme', name: 'readme' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'notes://p.png', mimeType: 'image/png', blob: PNG } } },
      ],
    };
    const { messages, shown } = promptConversation(result, 'notes/review');
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(messages[0]!.content, [{ type: 'text', text: 'Review a.md.' }]);
    assert.deepEqual(messages[1]!.content, [{ type: 'text', text: 'Which parts?' }]);
    const last = messages[2]!.content as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(
      last.map((b) => b.type),
      ['text', 'text', 'image', 'text', 'text', 'image'],
    );
    assert.equal((last[1] as { text: string }).text, '<resource uri="notes://a.md" mimeType="text/markdown">\n# A\n</resource>');
    assert.deepEqual(last[2], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } });
    assert.match((last[3] as { text: string }).text, /^\[resource notes:\/\/readme \(readme\): not included; it can be read with read_mcp_resource\]$/);
    assert.match((last[4] as { text: string }).text, /notes:\/\/p\.png, image\/png/);
    assert.deepEqual(
      shown.map((s) => s.role),
      ['user', 'assistant', 'user', 'user', 'user', 'user', 'user'],
    );
    assert.equal(shown[3]!.text, '[resource notes://a.md]\n# A');
    assert.equal(shown[4]!.text, '[image, image/png]');
  });

  test('the conversation starts and ends with the person: an assistant first or last gets a line around it', () => {
    const { messages } = promptConversation(
      {
        messages: [
          { role: 'assistant', content: { type: 'text', text: 'Hi.' } },
          { role: 'user', content: { type: 'text', text: 'Go' } },
          { role: 'assistant', content: { type: 'text', text: 'Once upon' } },
        ],
      },
      's/p',
    );
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user'],
    );
    assert.deepEqual(messages[0]!.content, [{ type: 'text', text: '[The prompt s/p follows.]' }]);
    assert.deepEqual(messages[4]!.content, [{ type: 'text', text: '[Go on from your last message of the prompt s/p.]' }]);
  });

  test('an image from the assistant, a PDF, binary and oversized text are named or cut, never sent raw where the API refuses them', () => {
    const big = 'x'.repeat(300 * 1024);
    const { messages } = promptConversation(
      {
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: 'f://d.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } } },
          { role: 'user', content: { type: 'resource', resource: { uri: 'f://b.bin', blob: 'AAEC' } } },
          { role: 'user', content: { type: 'text', text: big } },
          { role: 'assistant', content: { type: 'image', mimeType: 'image/png', data: PNG } },
        ],
      },
      's/p',
    );
    const user = messages[0]!.content as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(user[0], { type: 'document', title: 'f://d.pdf', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } });
    assert.match((user[1] as { text: string }).text, /\[resource f:\/\/b\.bin, application\/octet-stream, 3 bytes of binary content, not shown\]/);
    const cut = (user[2] as { text: string }).text;
    assert.ok(cut.length < big.length && cut.endsWith("[… the prompt's text was cut at 100 KiB]"), cut.slice(-80));
    assert.deepEqual(messages[1]!.content, [{ type: 'text', text: '[image of type image/png, 70 bytes, not shown]' }]);
  });
});

describe('composerText: what a prompt puts in the message box for review', () => {
  test("the person's plain text, messages joined by a blank line", () => {
    const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
    assert.equal(composerText({ messages: [text('First.'), text('Second.')] }), 'First.\n\nSecond.');
  });

  test("nothing when the prompt holds the model's turns, embedded content, or no text: those are sent as they are", () => {
    assert.equal(
      composerText({
        messages: [
          { role: 'user', content: { type: 'text', text: 'a' } },
          { role: 'assistant', content: { type: 'text', text: 'b' } },
        ],
      }),
      undefined,
    );
    assert.equal(composerText({ messages: [{ role: 'user', content: { type: 'resource', resource: { uri: 'x://y', text: 'z' } } }] }), undefined);
    assert.equal(composerText({ messages: [{ role: 'user', content: { type: 'text', text: '  ' } }] }), undefined);
    assert.equal(composerText({ messages: [] }), undefined);
  });
});
