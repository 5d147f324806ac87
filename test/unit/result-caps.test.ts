import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { capChatContent, capHistory, capToolResults, RESULT_LIMITS } from '../../src/core/agent/result-caps';

type Result = Anthropic.ToolResultBlockParam;
type Block = Exclude<Result['content'], string | undefined>[number];

const result = (id: string, ...content: Block[]): Result => ({ type: 'tool_result', tool_use_id: id, content });
const textBlock = (text: string): Block => ({ type: 'text', text });
const image = (bytes: number): Block => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(bytes) } });
const blocks = (r: Result): Block[] => r.content as Block[];
const textOf = (r: Result): string =>
  blocks(r)
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
const bytes = (s: string): number => Buffer.byteLength(s);
const KiB = 1024;

describe('tool result caps', () => {
  const log = Array.from({ length: 40_000 }, (_, i) => `line ${i + 1}: ${'y'.repeat(70)}`).join('\n') + '\n';

  test('a 3 MB text keeps its start and end within the cap, and says which lines were left out', () => {
    const [capped] = capToolResults([result('t1', textBlock(log))], new Map([['t1', 'workspace__run_code']]));
    const sent = textOf(capped!);
    assert.ok(bytes(sent) <= RESULT_LIMITS.textPerResult, `${bytes(sent)} bytes`);
    const [head, note, tail] = blocks(capped!).map((b) => (b.type === 'text' ? b.text : ''));
    assert.ok(log.startsWith(head!) && head!.endsWith('\n'), 'the head is the start, cut at a line break');
    assert.ok(log.endsWith(tail!) && tail!.startsWith('line '), 'the tail is the end, from a line start');
    const headLines = head!.split('\n').length - 1;
    const tailFrom = 40_000 - (tail!.split('\n').length - 1) + 1;
    assert.match(note!, /^\[cut: this result held 3\.\d MiB of text \(40,000 lines\)/);
    assert.ok(note!.includes(`lines 1-${headLines.toLocaleString('en-US')} (`), note);
    assert.ok(note!.includes(`lines ${tailFrom.toLocaleString('en-US')}-40,000 below`), note);
    assert.match(note!, /call workspace__run_code again for a smaller part/);
  });

  test('capping a capped result changes nothing (a restored chat is stable)', () => {
    const once = capToolResults([result('a', textBlock(log)), result('b', textBlock(log)), result('c', textBlock('small'))]);
    const twice = capToolResults(once);
    twice.forEach((r, i) => assert.equal(r, once[i]));
    const small = [result('s', textBlock('hello'))];
    assert.equal(capToolResults(small)[0], small[0], 'a small result is passed as it is');
  });

  test('multi-byte text is cut between characters', () => {
    const emoji = '😀'.repeat(100_000) + 'é'.repeat(10_000);
    const sent = textOf(capToolResults([result('e', textBlock(emoji))])[0]!);
    assert.ok(bytes(sent) <= RESULT_LIMITS.textPerResult);
    assert.doesNotMatch(sent, /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    assert.ok(sent.endsWith('é'));
  });

  test('results of one reply share a budget: small ones pass whole, big ones split the rest', () => {
    const big = 'z'.repeat(150 * KiB);
    const out = capToolResults([result('a', textBlock(big)), result('b', textBlock(big)), result('c', textBlock('x'.repeat(10 * KiB)))]);
    assert.equal(textOf(out[2]!).length, 10 * KiB);
    const total = out.reduce((n, r) => n + bytes(textOf(r)), 0);
    assert.ok(total <= RESULT_LIMITS.textPerReply, `${total} bytes in all`);
    assert.ok(bytes(textOf(out[0]!)) > 80 * KiB, 'the big ones get a fair share each');
  });

  test('string content is capped too', () => {
    const [capped] = capToolResults([{ type: 'tool_result', tool_use_id: 's', content: log }]);
    assert.ok(bytes(textOf(capped!)) <= RESULT_LIMITS.textPerResult);
  });

  test('images count: one over the API limit, and those past the reply budget, become notes', () => {
    const [tooBig] = capToolResults([result('i', image(6 * 1024 * KiB), textBlock('caption'))]);
    assert.equal(blocks(tooBig!)[0]!.type, 'text');
    assert.match(textOf(tooBig!), /image\/png image of 6\.0 MiB not sent: over the 5\.0 MiB the Messages API takes per image/);
    assert.match(textOf(tooBig!), /caption$/);
    const out = capToolResults([result('a', image(2 * 1024 * KiB)), result('b', image(2 * 1024 * KiB)), result('c', image(2 * 1024 * KiB))]);
    assert.deepEqual(
      out.map((r) => blocks(r)[0]!.type),
      ['image', 'image', 'text'],
    );
    assert.match(textOf(out[2]!), /went over 20 images or 5\.0 MiB in one reply/);
  });

  test('the chat gets the same per-result cap', () => {
    const shown = capChatContent(
      [
        { type: 'text', text: log },
        { type: 'image', mimeType: 'image/png', data: 'A'.repeat(6 * 1024 * KiB) },
      ],
      'x__y',
    );
    const text = shown.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.ok(bytes(text) <= RESULT_LIMITS.textPerResult + 200);
    assert.ok(
      shown.every((c) => c.type === 'text'),
      'the oversized image became a note',
    );
    const small = [{ type: 'text' as const, text: 'hi' }];
    assert.equal(capChatContent(small), small);
  });

  test('a saved history is capped with the tool names of its calls', () => {
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'files__dump', input: {} }] },
      { role: 'user', content: [result('u1', textBlock(log)), { type: 'text', text: 'and a note' }] },
      { role: 'assistant', content: 'ok' },
    ];
    const fixed = capHistory(history);
    assert.equal(fixed[0], history[0]);
    assert.equal(fixed[3], history[3]);
    const content = fixed[2]!.content as Anthropic.ContentBlockParam[];
    assert.equal(content.length, 2);
    assert.match(JSON.stringify(content[0]), /call files__dump again/);
    assert.deepEqual(content[1], { type: 'text', text: 'and a note' });
  });
});
