// Sampling and elicitation in the real extension (code-server + Chromium), against the reference server
// @modelcontextprotocol/server-everything added through the mcpAgent.servers setting (so no trust
// question): the model calls its sampling tool, the card appears, Allow → the server gets the model's
// answer; its elicitation form filled in and accepted; Deny and Decline; in light, dark and high
// contrast, each card's text measured (at least 4.5:1) and shot for a person to look at.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import type { MessagesBody, Reply } from '../fakes/anthropic-api';
import { ASK_CARD_TEXT, measureContrast } from '../fakes/contrast';
import { outsideServer } from '../support/outside-servers';
import { shownText } from '../support/shown-text';
import { chatRig, themeBlock } from './chat-rig';

const everything = outsideServer('server-everything');
const SAMPLING_SYSTEM = 'You are a helpful test server.';
const MODEL_ANSWER = 'Hi from the model, sampled.';

/** Holds the model's call for "please sample later" until the test has put another view in front of the chat. */
let later: Promise<unknown> = Promise.resolve();

/** The model: asked by the person to sample or to fill a form, it calls the server's tool; a sampling request gets MODEL_ANSWER. */
function script(body: MessagesBody): Reply {
  if (JSON.stringify(body.system ?? '').includes(SAMPLING_SYSTEM)) return { text: MODEL_ANSWER };
  const last = JSON.stringify(body.messages.at(-1)?.content ?? '');
  if (last.includes('tool_result')) return { text: 'The tool is done.' };
  if (/please sample later/.test(last))
    return { toolUses: [{ name: 'everything__trigger-sampling-request', input: { prompt: 'Say hi', maxTokens: 50 } }], gate: later };
  if (/please sample/.test(last)) return { toolUses: [{ name: 'everything__trigger-sampling-request', input: { prompt: 'Say hi', maxTokens: 50 } }] };
  if (/please ask me/.test(last)) return { toolUses: [{ name: 'everything__trigger-elicitation-request', input: {} }] };
  return { text: 'Say "please sample" or "please ask me".' };
}

/** Light last: its own tests allow the sampling tool for good, which would leave the other blocks nothing to approve. */
const THEMES = [
  { theme: 'Default Dark Modern', slug: 'dark' },
  { theme: 'Default High Contrast', slug: 'hc' },
  { theme: 'Default Light Modern', slug: 'light' },
];

describe('sampling and elicitation cards in the real chat', { timeout: 600_000 }, () => {
  const rig = chatRig(
    'client-cards',
    script,
    { 'a.txt': 'a\n' },
    {
      'workbench.colorTheme': THEMES[0]!.theme,
      'mcpAgent.servers': { everything: { type: 'stdio', command: process.execPath, args: [everything, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } },
    },
  );

  for (const { theme, slug } of THEMES) {
    describe(theme, () => {
      themeBlock(rig, `client-cards-${slug}`, theme);

      /** Sends a message and allows the tool call it leads to. */
      async function askModel(chat: FrameLocator, text: string): Promise<void> {
        await chat.locator('#send').waitFor({ state: 'visible' }); // no turn running
        await chat.locator('#input').fill(text);
        await chat.locator('#input').press('Enter');
        const approval = chat.locator('.approval[data-state="pending"]');
        await approval.waitFor();
        await approval.locator('button[data-decision="once"]').click();
      }

      async function checkContrast(chat: FrameLocator, t: { diagnostic(m: string): void }): Promise<void> {
        const measured = await measureContrast(chat.locator('body'), ASK_CARD_TEXT);
        assert.ok(measured.length > 5, 'the check measured the cards');
        const worst = [...measured].sort((a, b) => a.ratio - b.ratio)[0]!;
        t.diagnostic(`${measured.length} texts; lowest ${worst.ratio.toFixed(2)} (${worst.selector} "${worst.text}")`);
        assert.deepEqual(
          measured.filter((m) => m.ratio < 4.5).map((m) => `${m.selector} "${m.text}" ${m.ratio.toFixed(2)} (rgb ${m.fg} on ${m.bg})`),
          [],
        );
      }

      test('the model calls the server’s sampling tool; the card shows the request; Allow sends the model’s answer to the server', async (t) => {
        // Its sampling and elicitation tools exist only once it has seen the capabilities: wait for it to be ready
        // (in the trees' own side bar), then show the chat.
        await rig.vs.waitForTreeItem('Tools', /everything\s*ready/, 90_000);
        const chat = await rig.vs.openChat();
        await askModel(chat, 'please sample');
        const card = chat.locator('.ask-card[data-kind="sampling"][data-state="pending"]');
        await card.waitFor({ timeout: 60_000 });
        const text = await shownText(card);
        assert.match(text, /everything asks the model for a reply/);
        assert.match(text, /You are a helpful test server\./);
        assert.match(text, /Say hi/);
        assert.match(await shownText(card.locator('.ask-max-tokens')), /^50$/);
        await checkContrast(chat, t);
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('sampling-card')}`);
        await card.locator('button[data-answer="once"]').click();
        await chat.locator('.ask-card[data-kind="sampling"][data-state="once"]').waitFor();
        await chat.getByText('The tool is done.').waitFor({ timeout: 60_000 });
        const toolResult = JSON.stringify(rig.api.requests.at(-1)?.body.messages.at(-1));
        assert.ok(toolResult.includes(MODEL_ANSWER), `the server got the model's answer: ${toolResult.slice(0, 400)}`);
      });

      test('the server’s form: every field kind with its defaults, filled in by keyboard and accepted', async (t) => {
        const chat = await rig.vs.openChat();
        await askModel(chat, 'please ask me');
        const card = chat.locator('.ask-card[data-kind="form"][data-state="pending"]');
        await card.waitFor({ timeout: 60_000 });
        assert.equal(await card.locator('[data-field="firstLine"] input').inputValue(), 'It was a dark and stormy night.');
        assert.equal(await card.locator('[data-field="integer"] input').inputValue(), '42');
        assert.equal(await shownText(card.locator('[data-field="legacyTitledEnum"] select option:checked')), 'Cats');
        // Accept with the required name empty: the error stands beside it and nothing is sent.
        await card.locator('button[data-answer="accept"]').click();
        await card.locator('[data-field="name"] .ask-field-error:not([hidden])').waitFor();
        await checkContrast(chat, t);
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('form-card-error')}`);
        // The focus is on the name: type it and press Enter.
        await rig.vs.page.keyboard.type('Ada Lovelace');
        await rig.vs.page.keyboard.press('Enter');
        await chat.locator('.ask-card[data-kind="form"][data-state="accept"]').waitFor();
        await chat.getByText('The tool is done.').nth(1).waitFor({ timeout: 60_000 });
        const toolResult = JSON.stringify(rig.api.requests.at(-1)?.body.messages.at(-1));
        assert.match(toolResult, /Name: Ada Lovelace/);
        assert.match(toolResult, /Favorite first line of a story|stormy night/);
      });

      if (slug === 'light') {
        test('Deny on a sampling card and Decline on a form reach the server as such; the chat goes on', async (t) => {
          const chat = await rig.vs.openChat();
          await askModel(chat, 'please sample');
          await chat.locator('.ask-card[data-kind="sampling"][data-state="pending"] button[data-answer="deny"]').click();
          await chat.locator('.ask-card[data-kind="sampling"][data-state="deny"]').waitFor();
          await chat.getByText('The tool is done.').nth(2).waitFor({ timeout: 60_000 });
          assert.match(JSON.stringify(rig.api.requests.at(-1)?.body.messages.at(-1)), /User rejected sampling request/);
          await askModel(chat, 'please ask me');
          await chat.locator('.ask-card[data-kind="form"][data-state="pending"] button[data-answer="decline"]').click();
          await chat.locator('.ask-card[data-kind="form"][data-state="decline"]').waitFor();
          await chat.getByText('The tool is done.').nth(3).waitFor({ timeout: 60_000 });
          assert.match(JSON.stringify(rig.api.requests.at(-1)?.body.messages.at(-1)), /declin/i);
          t.diagnostic(`screenshot: ${await rig.vs.screenshot('denied-and-declined')}`);
        });

        test('a question that comes while another view covers the chat brings the chat back on screen', async (t) => {
          const chat = await rig.vs.openChat();
          // Always allow the sampling tool, so its next call runs while the chat is out of sight.
          await chat.locator('#send').waitFor({ state: 'visible' });
          await chat.locator('#input').fill('please sample');
          await chat.locator('#input').press('Enter');
          await chat.locator('.approval[data-state="pending"] button[data-decision="always"]').click();
          await chat.locator('.ask-card[data-kind="sampling"][data-state="pending"] button[data-answer="deny"]').click();
          await chat.getByText('The tool is done.').nth(4).waitFor({ timeout: 60_000 });

          let release: () => void = () => undefined;
          later = new Promise<void>((resolve) => (release = resolve));
          const sent = rig.api.requests.length;
          await chat.locator('#input').fill('please sample later');
          await chat.locator('#input').press('Enter');
          await rig.api.waitForRequests(sent + 1);
          await rig.vs.runCommand('View: Show Explorer');
          await rig.vs.page.locator('.part.sidebar .pane-header .title', { hasText: /^Outline$/i }).waitFor();
          assert.equal(await rig.vs.activityIcon().getAttribute('aria-selected'), 'false', 'the Explorer covers the chat');
          release();
          const card = chat.locator('.ask-card[data-kind="sampling"][data-state="pending"]');
          await card.waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(await rig.vs.activityIcon().getAttribute('aria-selected'), 'true', 'the chat is on screen again');
          await rig.vs.chatFrame().locator('#input').waitFor({ state: 'visible' });
          t.diagnostic(`screenshot: ${await rig.vs.screenshot('revealed-for-question')}`);
          await card.locator('button[data-answer="once"]').click();
          await chat.getByText('The tool is done.').nth(5).waitFor({ timeout: 60_000 });
          t.diagnostic(`screenshot: ${await rig.vs.screenshot('answered-after-reveal')}`);
        });
      }
    });
  }
});
