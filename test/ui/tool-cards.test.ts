// Tool cards in the real VS Code at its default 300 px side bar: the tool's name is never cut (the server's gives
// way), and a call the person denied is their decision, drawn calmly, not as a failure. Light and high contrast.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: lastUserText(body).includes('denied') ? 'Understood: I wrote nothing.' : 'Listed.' };
  if (/list/.test(lastUserText(body))) return { toolUses: [{ name: 'workspace__list_directory', input: { path: '.' } }] };
  return { text: 'I will write it.', toolUses: [{ name: 'workspace__write_file', input: { path: 'notes.md', content: 'hello\n' } }] };
}

/** Whether a card's names are cut: the text wider than its box by any fraction of a pixel (enough for an ellipsis). */
function cut(chat: FrameLocator, callIndex: number): Promise<{ tool: boolean; server: boolean }> {
  return chat
    .locator('.tool-card .tool-name')
    .nth(callIndex)
    .evaluate((name) => {
      const textWidth = (el: Element): number => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect().width;
      };
      const isCut = (el: Element): boolean => textWidth(el) > el.getBoundingClientRect().width + 0.01;
      return { tool: isCut(name.querySelector('.tool-tool')!), server: isCut(name.querySelector('.tool-server')!) };
    });
}

const THEMES = [
  { name: 'light', setting: 'Default Light Modern' },
  { name: 'high-contrast', setting: 'Default High Contrast' },
];

for (const theme of THEMES) {
  describe(`tool cards (${theme.name})`, () => {
    const rig = chatRig(`tool-cards-${theme.name}`, model, { 'a.txt': 'a\n' }, { 'workbench.colorTheme': theme.setting });

    test('at the default side bar a finished card shows "workspace · list_directory" whole', async (t) => {
      const chat = await rig.vs.openChat();
      await chat.locator('#input').fill('list the files');
      await chat.locator('#input').press('Enter');
      await chat.locator('.tool-card[data-status="done"]').waitFor();
      await chat.locator('.msg.assistant .markdown', { hasText: 'Listed.' }).waitFor();
      assert.equal(await chat.locator('.tool-card .tool-tool').first().innerText(), 'list_directory');
      assert.deepEqual(await cut(chat, 0), { tool: false, server: false });
      t.diagnostic(`screenshot: ${await rig.vs.screenshot('card-at-300px')}`);
    });

    test('a denied write is shown as the person\'s decision: "denied", no red, no error block, nothing written', async (t) => {
      const chat = await rig.vs.openChat();
      await chat.locator('#input').fill('write the notes');
      await chat.locator('#input').press('Enter');
      await chat
        .locator('.approval[data-state="pending"] button[data-decision="deny"]')
        .click()
        .catch(async (err: unknown) => {
          t.diagnostic(`cards: ${JSON.stringify(await chat.locator('.approval, .tool-card').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 300))))}`);
          t.diagnostic(`screenshot: ${await rig.vs.screenshot('no-pending-approval')}`);
          throw err;
        });
      const card = chat.locator('.tool-card[data-status="denied"]');
      await card.waitFor();
      await chat.locator('.msg.assistant .markdown', { hasText: 'Understood: I wrote nothing.' }).waitFor();
      assert.equal(await card.locator('.duration').innerText(), 'denied');
      assert.equal(await card.locator('.tool-body').isHidden(), true);
      assert.equal(await chat.locator('.tool-card[data-status="error"], .tool-pre.is-error').count(), 0);
      assert.equal(existsSync(join(rig.vs.workspace, 'notes.md')), false);
      const [border, plain] = await card.evaluate((el) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--chat-border)';
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return [getComputedStyle(el).borderTopColor, colour];
      });
      assert.equal(border, plain, 'framed like any finished card, not as an error');
      await card.locator('.tool-header').click();
      assert.match(await card.locator('.tool-result').innerText(), /denied this tool call/i);
      t.diagnostic(`screenshot: ${await rig.vs.screenshot('denied')}`);
    });
  });
}
