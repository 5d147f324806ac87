// The chat's states a person meets before the first answer: no API key yet, and Restricted Mode.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startVscode, type Vscode } from '../vscode/harness';

describe('no API key', () => {
  let vs: Vscode;
  before(async () => {
    vs = await startVscode({ name: 'no-key', files: { 'a.txt': 'a\n' }, env: { ANTHROPIC_API_KEY: '' } });
  });
  after(async () => {
    await vs?.close();
  });

  test('the chat shows a call to action that stores the key in secret storage', async (t) => {
    const chat = await vs.openChat();
    const cta = chat.locator('.cta-set-key');
    await cta.waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('call-to-action')}`);
    await cta.click();
    const input = vs.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor();
    assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password box');
    await input.fill('sk-ant-test-key-123456');
    await input.press('Enter');
    await cta.waitFor({ state: 'detached' });
  });
});

describe('Restricted Mode', () => {
  let vs: Vscode;
  before(async () => {
    vs = await startVscode({ name: 'restricted', files: { 'a.txt': 'a\n' }, workspaceTrust: true, env: { ANTHROPIC_API_KEY: 'sk-ant-test' } });
  });
  after(async () => {
    await vs?.close();
  });

  test('only the web server starts, and the chat says why', async (t) => {
    await vs.restrictedMode();
    const chat = await vs.openChat();
    await chat.locator('.banner-restricted').waitFor();
    await vs.waitForTreeItem('Tools', /web\s*ready/);
    const servers = (await vs.treeItems('Tools')).filter((i) => i.level === 1).map((i) => i.label);
    assert.deepEqual(servers, ['web']);
    t.diagnostic(`screenshot: ${await vs.screenshot('restricted')}`);
  });
});
