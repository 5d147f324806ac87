// Resources, completions and server logs in a real VS Code (code-server + Chromium), against
// test/fakes/mcp-resources.ts from the mcpAgent.servers setting (no trust question): a resource opens as a
// read-only document that follows the server's updates; a template's variables offer the server's
// completions as one types; Show Server Log opens the server's own channel. Screenshots in light, dark and
// high contrast.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';
import { startVscode, type Vscode } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const fake = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-resources.js');
const PULSES = 100;
/** [kind, theme id, its label in the theme picker] */
const THEMES = [
  ['light', 'Default Light Modern', 'Light Modern'],
  ['dark', 'Default Dark Modern', 'Dark Modern'],
  ['high-contrast', 'Default High Contrast', 'Dark High Contrast'],
] as const;

describe('MCP resources in the editor', () => {
  let vs: Vscode;
  before(async () => {
    vs = await startVscode({
      name: 'resources',
      files: { 'a.txt': 'a\n' },
      settings: {
        'workbench.colorTheme': THEMES[0][1],
        'mcpAgent.servers': { res: { type: 'stdio', command: process.execPath, args: [fake, `--pulses=${PULSES}`], env: { ELECTRON_RUN_AS_NODE: '1' } } },
      },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
  });
  after(async () => {
    await vs?.close();
  });

  const quickInput = (): ReturnType<Vscode['page']['locator']> => vs.page.locator('.quick-input-widget .quick-input-box input');
  const pickRow = (text: string): ReturnType<Vscode['page']['locator']> => vs.page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();
  const editorText = (text: string): ReturnType<Vscode['page']['locator']> =>
    vs.page.locator('.editor-instance .monaco-editor .view-lines', { hasText: text }).first();

  /** Opens the city template's picker and types "ja": the server's suggestion appears under what was typed. */
  async function completeCountry(): Promise<void> {
    await (await vs.waitForTreeItem('Resources', /city/)).click();
    await pickRow('Peru').waitFor();
    await quickInput().fill('ja');
    await pickRow('Japan').waitFor();
    // What is typed shows at once; the server's answer for it replaces the earlier suggestions.
    await pickRow('France').waitFor({ state: 'detached' });
    assert.equal(await pickRow('Japan').count(), 1);
  }

  test("a resource opens read-only and shows the server's last update", async (t) => {
    await vs.openChat();
    // The other trees leave the Resources view little room, and a list draws only the rows it shows.
    await vs.showServers();
    for (const view of ['Tools', 'Prompts', 'Sessions', 'Chats']) await vs.collapseView(view);
    await (
      await vs.waitForTreeItem('Resources', /counter/, 60_000).catch(async (err: Error) => {
        t.diagnostic(`screenshot: ${await vs.screenshot('no-counter')}`);
        throw err;
      })
    ).click();
    await editorText(`version ${PULSES}`).waitFor({ timeout: 30_000 });
    const tab = vs.page.locator('.tabs-container .tab.active');
    assert.match(await shownText(tab), /counter/);
    assert.doesNotMatch((await tab.getAttribute('class')) ?? '', /\bdirty\b/, 'nothing to save');
    t.diagnostic(`screenshot: ${await vs.screenshot('refreshed-document-light')}`);
  });

  test("a template's variables offer the server's completions, the second with the first as context", async (t) => {
    await completeCountry();
    t.diagnostic(`screenshot: ${await vs.screenshot('completions-light')}`);
    await pickRow('Japan').click();
    await pickRow('Kyoto').waitFor();
    assert.equal(await pickRow('Lima').count(), 0, "only Japan's cities (no earlier list stays on screen: the picker is a new step)");
    await pickRow('Kyoto').click();
    await editorText('Kyoto is in Japan').waitFor();
  });

  test("Show Server Log opens the server's own channel", async (t) => {
    await vs.runCommand('MCP Agent: Show Server Log');
    await vs.page.locator('.quick-input-widget').getByRole('option', { name: 'res', exact: true }).click();
    const output = vs.page.locator('.part.panel .monaco-editor .view-lines');
    await output
      .filter({ hasText: /ready:\sresources\s1\.0\.0/ })
      .first()
      .waitFor()
      .catch(async (err: Error) => {
        t.diagnostic(`screenshot: ${await vs.screenshot('no-server-log')}`);
        throw err;
      });
    assert.doesNotMatch(await shownText(output.first()), /ready:\sworkspace/, 'only its own server');
    t.diagnostic(`screenshot: ${await vs.screenshot('server-log')}`);
  });

  for (const [i, [kind, , label]] of THEMES.slice(1).entries()) {
    test(`the document and the completion list in ${kind}`, async (t) => {
      await vs.runCommand('Preferences: Color Theme');
      // By its label: 1.139's picker no longer matches the setting's name ("Default Dark Modern").
      await quickInput().fill(label);
      const row = vs.page
        .locator('.quick-input-widget .monaco-list-row')
        .filter({ has: vs.page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) });
      await row
        .first()
        .click()
        .catch(async (err: Error) => {
          t.diagnostic(`screenshot: ${await vs.screenshot(`no-theme-${kind}`)}`);
          throw err;
        });
      await quickInput().waitFor({ state: 'hidden' });
      // Closed, it is let go; opened again, it is subscribed again, and the server pulses another hundred times.
      await vs.runCommand('View: Close All Editors');
      await (await vs.waitForTreeItem('Resources', /counter/)).click();
      await editorText(`version ${PULSES * (i + 2)}`).waitFor();
      t.diagnostic(`screenshot: ${await vs.screenshot(`refreshed-document-${kind}`)}`);
      await completeCountry();
      t.diagnostic(`screenshot: ${await vs.screenshot(`completions-${kind}`)}`);
      await vs.page.keyboard.press('Escape');
      await quickInput().waitFor({ state: 'hidden' });
    });
  }
});
