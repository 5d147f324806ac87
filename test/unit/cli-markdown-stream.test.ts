// The CLI renders a streamed reply a Markdown block at a time: nothing is rendered mid-block, and a
// blank line inside a code fence does not end the block.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MarkdownStream } from '../../src/cli/terminal-markdown';

describe('MarkdownStream', () => {
  const rendered: string[] = [];
  const stream = (): MarkdownStream => new MarkdownStream((md) => (rendered.push(md), `<${md}>`));

  test('holds text until a blank line ends a block; flush renders the rest', () => {
    rendered.length = 0;
    const s = stream();
    assert.equal(s.write('# Ti'), '');
    assert.equal(s.write('tle\n\nSome '), '<# Title\n\n>');
    assert.equal(s.write('text'), '');
    assert.equal(s.flush(), '<Some text>');
    assert.equal(s.flush(), '', 'nothing held twice');
  });

  test('a fenced block is one block, blank lines and all, whichever fence it uses', () => {
    rendered.length = 0;
    const s = stream();
    assert.equal(s.write('```js\nconst a = 1;\n\nconst b = 2;\n'), '');
    assert.equal(s.write('~~~\n\n'), '', 'another kind of fence does not close it');
    assert.equal(s.write('```\n\nafter\n'), '<```js\nconst a = 1;\n\nconst b = 2;\n~~~\n\n```\n\n>');
    assert.equal(s.flush(), '<after\n>');
  });
});
