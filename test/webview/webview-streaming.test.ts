// The chat webview in headless Chromium while an answer streams: the finished part of a long answer is
// rendered once and kept (only its unfinished end is re-rendered each frame, which keeps frames short), and
// what is on screen at the end is exactly the markdown of the whole answer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostMessage } from '../../src/common/protocol';
import { useChatPages } from '../fakes/webview-pages';

const { openReady } = useChatPages();

const delta = (text: string): HostMessage => ({ type: 'delta', turnId: 't', blockId: 'live', text });

describe('chat webview: streaming a long answer', () => {
  test('finished blocks keep their nodes while the end streams; fences and list items are never cut', async () => {
    const chat = await openReady();
    const { page } = chat;
    const block = page.locator('.markdown[data-block-id="live"]');
    await chat.post(delta('First paragraph.\n\n```py\na = 1\n\nb = 2\n```\n\nSecond'));
    await page.waitForFunction(() => document.querySelector('.markdown[data-block-id="live"]')?.textContent?.includes('Second'));
    // Tag the first paragraph's node: a renderer that rebuilds everything would drop it.
    await block
      .locator('p')
      .first()
      .evaluate((p) => p.setAttribute('data-kept', 'yes'));

    await chat.post(delta(' grows.\n\n- item one\n\n  still item one\n\nThird'));
    await page.waitForFunction(() => document.querySelector('.markdown[data-block-id="live"]')?.textContent?.includes('Third'));
    await chat.post(delta(' and more'));
    await page.waitForFunction(() => document.querySelector('.markdown[data-block-id="live"]')?.textContent?.includes('and more'));
    assert.equal(await block.locator('p[data-kept="yes"]').count(), 1, 'the first paragraph was rendered once and kept');
    assert.equal(await block.locator('.code-block').count(), 1, 'a blank line inside a fence does not split it');
    assert.equal(await block.locator('.code-block code').textContent(), 'a = 1\n\nb = 2');
    assert.equal(await block.locator('li').count(), 1);
    assert.match((await block.locator('li').textContent()) ?? '', /item one\s+still item one/);
    assert.equal(await page.locator('.markdown.streaming').count(), 1);
  });

  test('at the end of the turn the answer is the markdown of its whole text, as a replayed answer shows it', async () => {
    const chat = await openReady();
    const { page } = chat;
    const text = 'Intro.\n\n1. one\n\n2. two\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\nA `src/app.py:3` link.\n\n```ts\nconst x = 1;\n```\n\nEnd.';
    for (const piece of text.match(/[\s\S]{1,7}/g) ?? []) await chat.post(delta(piece));
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't', status: 'done' } });
    await page.waitForSelector('.markdown[data-block-id="live"]:not(.streaming)');
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 'r', blockId: 'replayed', text } });
    await page.locator('.markdown[data-block-id="replayed"]').waitFor();
    const html = (id: string) => page.locator(`.markdown[data-block-id="${id}"]`).innerHTML();
    assert.equal(await html('live'), await html('replayed'));
    assert.equal(await page.locator('.markdown[data-block-id="live"] ol').count(), 1, 'one list, numbered 1 and 2');
  });
});
