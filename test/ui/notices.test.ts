// Notices with actions in a real VS Code: a 529 that outlasts the SDK's retries offers Retry, which works.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeAnthropicApi, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { startVscode, type Vscode } from '../vscode/harness';

describe('notices with actions in a real VS Code', () => {
  let overloaded = 0;
  // "busy" is overloaded for the first 3 requests (the first try and the SDK's 2 retries), then answers.
  const api = new FakeAnthropicApi((body: MessagesBody): Reply => {
    if (/busy/.test(lastUserText(body)) && overloaded < 3) {
      overloaded++;
      return { error: 529, message: 'Overloaded', retryAfterMs: 1000 };
    }
    return { text: `Answered after ${overloaded} overloaded tries.` };
  });
  let vs: Vscode;

  before(async () => {
    const url = await api.start();
    vs = await startVscode({
      name: 'notices',
      files: {},
      settings: { 'mcpAgent.apiBaseUrl': url, 'mcpAgent.model': 'claude-test' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
  });

  after(async () => {
    await vs?.close();
    await api.stop();
  });

  test('529 after the retries: the error says so, Retry counts down, then one click answers', async (t) => {
    const chat = await vs.openChat();
    await chat.locator('#input').fill('are you busy?');
    await chat.locator('#input').press('Enter');
    const end = chat.locator('.turn-end[data-status="error"]');
    await end.waitFor();
    assert.match(await end.innerText(), /overloaded \(529\)/);
    const retry = end.locator('button[data-action="retry"]');
    await retry.waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('retry-offered')}`);
    await chat.locator('button[data-action="retry"]:not([disabled])').waitFor();
    const before_ = api.requests.length;
    await retry.click();
    await chat.locator('.msg.assistant .markdown', { hasText: 'Answered after 3 overloaded tries.' }).waitFor();
    assert.equal(api.requests.length - before_, 1);
    assert.equal(await chat.locator('.msg.user').count(), 1, 'Retry adds no message of its own');
    assert.equal(await chat.locator('.turn-actions').count(), 0);
    t.diagnostic(`screenshot: ${await vs.screenshot('retry-answered')}`);
  });

  test('keyboard: Ctrl+Alt+M from the editor focuses the chat input', async () => {
    // Away from the chat first: the explorer, so the key goes to the workbench.
    await vs.page.getByRole('tab', { name: /Explorer/ }).first().click();
    await vs.page.keyboard.press('Control+Alt+m');
    const chat = vs.chatFrame();
    await chat.locator('#input:focus').waitFor();
  });
});
