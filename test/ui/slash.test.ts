// Slash commands and MCP resources in the real chat (code-server): `/` opens the command list, /tools answers
// in the chat without reaching the model, /prompt sends a prompt with its roles (the chat shows them) or puts the
// person's plain text in the message box to review, and
// "Add to Chat" in the Resources view attaches a resource that goes to the model as context. The notes
// server (test/fakes/mcp-prompts.ts) is the person's own, from the mcpAgent.servers setting.
// Screenshots in light, dark and high contrast.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';
import { chatRig } from './chat-rig';
import type { Vscode } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const notes = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-prompts.js');

/** Switches the color theme with its own picker, as a person would, and waits for the window to take it. */
async function theme(vs: Vscode, name: string): Promise<void> {
  await vs.runCommand('Preferences: Color Theme');
  const input = vs.page.locator('.quick-input-widget .quick-input-box input');
  await input.fill(name);
  // Clicked, not Enter: the list also holds "Browse Additional Color Themes", which Enter can land on.
  // A row shows the theme's label ("Dark Modern") and, as its description, the setting value we ask for.
  const row = vs.page.locator('.quick-input-widget .monaco-list-rows').getByText(name, { exact: true }).first();
  try {
    await row.waitFor({ timeout: 15_000 });
  } catch (err) {
    await vs.screenshot(`theme-picker-${name}`);
    throw err;
  }
  await row.click();
  const kind = name.includes('High Contrast Light') ? 'hc-light' : name.includes('High Contrast') ? 'hc-black' : name.includes('Dark') ? 'vs-dark' : 'vs';
  await vs.page.locator(`.monaco-workbench.${kind}`).waitFor({ timeout: 60_000 });
}

describe('slash commands and resources in the chat', () => {
  const rig = chatRig(
    'slash',
    [{ text: 'Answered the prompt.' }, { text: 'Tides, summarized.' }, { text: 'The note says THE-README-TEXT.' }],
    { 'a.md': '# A\n' },
    {
      'mcpAgent.servers': { notes: { type: 'stdio', command: process.execPath, args: [notes], env: { ELECTRON_RUN_AS_NODE: '1' } } },
    },
  );

  test('/ opens the command list; /tools answers in the chat and nothing reaches the model', async (t) => {
    const chat = await rig.vs.openChat();
    const input = chat.locator('#input');
    await input.pressSequentially('/');
    const list = chat.locator('#slash-list');
    await list.locator('.slash-item', { hasText: '/tools' }).waitFor();
    assert.deepEqual(
      (await list.locator('.mention-label').allInnerTexts()).map((l) => l.split(' ')[0]),
      ['/tools', '/resources', '/prompts', '/resource', '/prompt', '/clear', '/model', '/help'],
    );
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('slash-list-light')}`);
    await input.pressSequentially('too');
    // The list answers what was typed (an older list may still show): Enter on a stale list sends the text as typed.
    await chat.locator('#slash-list[data-for="/too"] .slash-item', { hasText: '/tools' }).waitFor();
    await input.press('Enter');
    const listing = chat.locator('.notice-listing').last();
    await listing.waitFor();
    assert.match(await shownText(listing), /workspace__read_file/);
    assert.equal(rig.api.requests.length, 0, 'no command reached the model');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('tools-listing-light')}`);
  });

  test('/prompt completes the server/prompt, sends its messages with their roles, and the chat shows them', async (t) => {
    const chat = await rig.vs.openChat();
    const input = chat.locator('#input');
    await input.pressSequentially('/prompt no');
    const item = chat.locator('#slash-list .slash-item', { hasText: 'notes/review' });
    await item.waitFor({ timeout: 60_000 });
    await input.press('Tab');
    assert.equal(await input.inputValue(), '/prompt notes/review ');
    await input.pressSequentially('file=a.md');
    await input.press('Escape');
    await input.press('Enter');
    const prompt = chat.locator('.msg.user .prompt-sent').last();
    await prompt.waitFor();
    assert.equal(await shownText(prompt.locator('.prompt-name')), 'Prompt notes/review');
    assert.deepEqual((await prompt.locator('.prompt-message').evaluateAll((els) => els.map((e) => e.getAttribute('data-role')))).slice(0, 3), [
      'user',
      'assistant',
      'user',
    ]);
    await chat.locator('.markdown', { hasText: 'Answered the prompt.' }).waitFor();
    const sent = rig.api.requests.at(-1)!.body.messages;
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.match(JSON.stringify(sent[1]), /ASSISTANT-TURN/);
    assert.match(JSON.stringify(sent[2]), /EMBEDDED-a\.md/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('prompt-roles-light')}`);
  });

  test("/prompt with only the person's text fills the message box for review and sends nothing until Enter", async (t) => {
    const chat = await rig.vs.openChat();
    const input = chat.locator('#input');
    const before = rig.api.requests.length;
    await input.fill('/prompt notes/summarize topic=tides');
    await input.press('Escape');
    await input.press('Enter');
    await chat.locator('.notice-listing', { hasText: 'notes/summarize is in the message box' }).last().waitFor();
    await input.evaluate(
      (el) =>
        new Promise<void>((done) => {
          const area = el as HTMLTextAreaElement;
          const check = (): void => (area.value.startsWith('Summarize what is known about tides') ? done() : void setTimeout(check, 50));
          check();
        }),
    );
    assert.equal(await input.inputValue(), 'Summarize what is known about tides, with sources.');
    assert.equal(rig.api.requests.length, before, 'nothing reached the model before the person sent it');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('prompt-in-composer-light')}`);
    await input.press('Enter');
    await chat.locator('.markdown', { hasText: 'Tides, summarized.' }).waitFor();
    assert.match(JSON.stringify(rig.api.requests.at(-1)!.body.messages.at(-1)), /Summarize what is known about tides, with sources\./);
  });

  test('"Add to Chat" on a resource in the Resources view attaches it; its text goes to the model as context', async (t) => {
    const { vs } = rig;
    // The lists draw only the rows on screen: fold the Tools view so the Resources view has room.
    await vs.showServers();
    await vs.collapseView('Tools');
    const pane = await vs.expandView('Resources');
    // Servers start unfolded; fold those above ours until its rows are drawn.
    const readme = pane.locator('.monaco-list-row', { hasText: 'Read me' }).first();
    await pane.locator('.monaco-list-row[aria-level="1"]').first().waitFor({ timeout: 60_000 });
    for (let i = 0; i < 10 && !(await readme.isVisible()); i++) {
      const open = pane.locator('.monaco-list-row[aria-level="1"][aria-expanded="true"]').filter({ hasNotText: 'notes' }).first();
      if ((await open.count()) === 0) break;
      await open.locator('.monaco-tl-twistie').click();
    }
    const row = await vs.waitForTreeItem('Resources', /Read me/);
    await vs.runContextMenuItem(row.locator('.label-name'), 'Add to Chat');
    const chat = vs.chatFrame();
    const chip = chat.locator('.composer .attachment-chip', { hasText: 'Read me' });
    await chip.waitFor();
    assert.match((await chip.getAttribute('data-path')) ?? '', /^@resource:notes:notes:\/\/readme$/);
    t.diagnostic(`screenshot: ${await vs.screenshot('resource-chip-light')}`);
    await chat.locator('#input').fill('What does the note say?');
    await chat.locator('#input').press('Enter');
    await chat.locator('.markdown', { hasText: 'The note says' }).waitFor();
    const last = JSON.stringify(rig.api.requests.at(-1)!.body.messages.at(-1));
    assert.match(last, /<attached_resource server=\\"notes\\" uri=\\"notes:\/\/readme\\" mimeType=\\"text\/markdown\\">\\n# Notes\\nTHE-README-TEXT/);
  });

  for (const name of ['Default Dark Modern', 'Default High Contrast', 'Default High Contrast Light']) {
    test(`the / list and a listing in ${name}`, async (t) => {
      await theme(rig.vs, name);
      const chat = await rig.vs.openChat();
      const input = chat.locator('#input');
      await input.fill('');
      await input.pressSequentially('/help');
      await chat.locator('#slash-list .slash-item', { hasText: '/help' }).waitFor();
      await chat.locator('#slash-list .slash-item').nth(1).waitFor({ state: 'detached' });
      t.diagnostic(`screenshot: ${await rig.vs.screenshot(`slash-list-${name}`)}`);
      await input.press('Enter');
      await chat.locator('.notice-listing', { hasText: '/resource <server> <uri>' }).last().waitFor();
      await input.pressSequentially('/resource notes ');
      await chat.locator('#slash-list .slash-item', { hasText: 'notes://readme' }).waitFor();
      t.diagnostic(`screenshot: ${await rig.vs.screenshot(`resource-uris-${name}`)}`);
      await input.press('Escape');
      await input.fill('');
    });
  }
});
