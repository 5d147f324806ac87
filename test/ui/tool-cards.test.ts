// Tool cards in the real VS Code at its default 300 px side bar: the tool's name, its server and its duration read
// in full (the server on a line of its own), a call the person denied is their decision, drawn calmly, not as a
// failure, and run_code's approval is read at a glance (its sandbox's gist on one line, the details one click away).
// Light and high contrast.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig, themeBlock } from './chat-rig';
import { shownText } from '../support/shown-text';

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: lastUserText(body).includes('denied') ? 'Understood: I wrote nothing.' : 'Listed.' };
  if (/list/.test(lastUserText(body))) return { toolUses: [{ name: 'workspace__list_directory', input: { path: '.' } }] };
  if (/count/.test(lastUserText(body))) return { toolUses: [{ name: 'workspace__run_code', input: { code: 'print(len(open("a.txt").read()))\n' } }] };
  return { text: 'I will write it.', toolUses: [{ name: 'workspace__write_file', input: { path: 'notes.md', content: 'hello\n' } }] };
}

/** Whether a card's names and duration are cut: the text wider than its box by any fraction of a pixel (enough for an ellipsis), or past the header's end. */
function cut(chat: FrameLocator, callIndex: number): Promise<{ tool: boolean; server: boolean; duration: boolean }> {
  return chat
    .locator('.tool-card .tool-header')
    .nth(callIndex)
    .evaluate((header) => {
      const textWidth = (el: Element): number => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect().width;
      };
      const isCut = (el: Element): boolean =>
        textWidth(el) > el.getBoundingClientRect().width + 0.01 || el.getBoundingClientRect().right > header.getBoundingClientRect().right + 0.5;
      return {
        tool: isCut(header.querySelector('.tool-tool')!),
        server: isCut(header.querySelector('.tool-server')!),
        duration: isCut(header.querySelector('.duration')!),
      };
    });
}

/** How many lines an element's text takes (its height over its line height). */
function lines(el: Locator): Promise<number> {
  return el.evaluate((e) => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)));
}

const THEMES = [
  { name: 'light', setting: 'Default Light Modern' },
  { name: 'high-contrast', setting: 'Default High Contrast' },
];

describe('tool cards, one window in each theme', () => {
  const rig = chatRig('tool-cards', model, { 'a.txt': 'a\n' }, { 'workbench.colorTheme': THEMES[0]!.setting });
  for (const theme of THEMES) {
    describe(`tool cards (${theme.name})`, () => {
      themeBlock(rig, `tool-cards-${theme.name}`, theme.setting);

      test('at the default side bar a finished card shows list_directory, its server and its duration whole', async (t) => {
        const chat = await rig.vs.openChat();
        await chat.locator('#input').fill('list the files');
        await chat.locator('#input').press('Enter');
        await chat.locator('.tool-card[data-status="done"]').waitFor();
        await chat.locator('.msg.assistant .markdown', { hasText: 'Listed.' }).waitFor();
        assert.equal(await shownText(chat.locator('.tool-card .tool-tool').first()), 'list_directory');
        assert.equal(await shownText(chat.locator('.tool-card .tool-server').first()), 'workspace');
        assert.match(await shownText(chat.locator('.tool-card .duration').first()), /^\d[\d.,]* (ms|s)$/);
        assert.deepEqual(await cut(chat, 0), { tool: false, server: false, duration: false });
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
            t.diagnostic(
              `cards: ${JSON.stringify(await chat.locator('.approval, .tool-card').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 300))))}`,
            );
            t.diagnostic(`screenshot: ${await rig.vs.screenshot('no-pending-approval')}`);
            throw err;
          });
        const card = chat.locator('.tool-card[data-status="denied"]');
        await card.waitFor();
        await chat.locator('.msg.assistant .markdown', { hasText: 'Understood: I wrote nothing.' }).waitFor();
        assert.equal(await shownText(card.locator('.duration')), 'denied');
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
        assert.match(await shownText(card.locator('.tool-result')), /denied this tool call/i);
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('denied')}`);
      });

      test("run_code's approval is short: the sandbox's gist on one line, its details behind a disclosure", async (t) => {
        const chat = await rig.vs.openChat();
        await chat.locator('#input').fill('count the characters');
        await chat.locator('#input').press('Enter');
        const approval = chat.locator('.approval[data-state="pending"]');
        await approval.waitFor();
        const summary = approval.locator('.approval-summary');
        assert.match(await shownText(summary), /^(Sandboxed, network off\.|No OS sandbox: full access\.)\s*Details$/);
        assert.equal(await lines(approval.locator('.approval-summary-text')), 1, 'the gist takes one line at 300 px');
        assert.equal(await approval.locator('.approval-details').getAttribute('open'), null);
        assert.equal(await approval.locator('.approval-details ul').first().isVisible(), false, 'the sandbox paragraph waits behind "Details"');
        await approval.scrollIntoViewIfNeeded();
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('run-code-approval-at-300px')}`);
        await summary.click();
        assert.match(await shownText(approval.locator('.approval-details')), /Code can change any file in this workspace, including \.vscode and \.git/);
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('run-code-approval-details')}`);
        await approval.locator('button[data-decision="deny"]').click();
        await chat.locator('.tool-card[data-status="denied"]', { has: chat.locator('.tool-tool', { hasText: 'run_code' }) }).waitFor();
      });
    });
  }
});
