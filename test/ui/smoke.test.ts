// The extension loads in a real VS Code: its activity-bar icon, the chat webview and the four tree views.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startVscode, type Vscode } from '../vscode/harness';

describe('MCP Agent in VS Code (smoke)', () => {
  let vs: Vscode;

  before(async () => {
    vs = await startVscode({ name: 'smoke', files: { 'README.md': '# sample\n' } });
  });

  after(async () => {
    await vs?.close();
  });

  test('the activity-bar icon opens the chat webview', async (t) => {
    const chat = await vs.openChat();
    await chat.locator('#messages').waitFor({ state: 'attached' });
    await chat.locator('#input').waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('chat-open')}`);
  });

  test('the side bar holds the chat and the Tools, Resources, Prompts and Sessions views', async (t) => {
    await vs.openChat();
    const titles = (await vs.viewTitles()).map((t) => t.toLowerCase());
    for (const name of ['chat', 'tools', 'resources', 'prompts', 'sessions']) {
      assert.ok(titles.includes(name), `missing view ${name} in ${JSON.stringify(titles)}`);
    }
    t.diagnostic(`screenshot: ${await vs.screenshot('side-bar')}`);
  });
});
