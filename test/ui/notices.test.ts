// Notices with actions in a real VS Code: a 529 that outlasts the SDK's retries offers Retry, which works.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';
import { shownText } from '../support/shown-text';

describe('notices with actions in a real VS Code', () => {
  let overloaded = 0;
  // "busy" is overloaded for the first 3 requests (the first try and the SDK's 2 retries), then answers.
  const rig = chatRig('notices', (body: MessagesBody): Reply => {
    if (/busy/.test(lastUserText(body)) && overloaded < 3) {
      overloaded++;
      return { error: 529, message: 'Overloaded', retryAfterMs: 1000 };
    }
    return { text: `Answered after ${overloaded} overloaded tries.` };
  });

  test('529 after the retries: the error says so, Retry counts down, then one click answers', async (t) => {
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('are you busy?');
    await chat.locator('#input').press('Enter');
    const end = chat.locator('.turn-end[data-status="error"]');
    await end.waitFor();
    assert.match(await shownText(end), /overloaded \(529\)/);
    const retry = end.locator('button[data-action="retry"]');
    await retry.waitFor();
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('retry-offered')}`);
    await chat.locator('button[data-action="retry"]:not([disabled])').waitFor();
    const before_ = rig.api.requests.length;
    await retry.click();
    await chat.locator('.msg.assistant .markdown', { hasText: 'Answered after 3 overloaded tries.' }).waitFor();
    assert.equal(rig.api.requests.length - before_, 1);
    assert.equal(await chat.locator('.msg.user').count(), 1, 'Retry adds no message of its own');
    assert.equal(await chat.locator('.turn-actions').count(), 0);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('retry-answered')}`);
  });

  test('keyboard: Ctrl+Alt+M from the editor focuses the chat input', async () => {
    // Away from the chat first: the explorer, so the key goes to the workbench.
    await rig.vs.page
      .getByRole('tab', { name: /Explorer/ })
      .first()
      .click();
    await rig.vs.page.keyboard.press('Control+Alt+m');
    const chat = rig.vs.chatFrame();
    await chat.locator('#input:focus').waitFor();
  });
});
