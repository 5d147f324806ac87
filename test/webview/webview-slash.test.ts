// The composer's / list in headless Chromium: it asks the host for what fits the text typed so far,
// behaves like the @ list (arrows, Enter/Tab, Escape), runs a complete command on Enter and only fills
// in one that takes arguments; a command goes to the host as `slash`, never as a message; `//x` sends `/x`.
// A command's listing and a prompt sent as a message (roles visible) render; screenshots light and dark.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostMessage, WebviewMessage } from '../../src/common/protocol';
import type { SlashItem } from '../../src/common/requests';
import { useChatPages } from '../fakes/webview-pages';
import { readyState } from '../fakes/webview-conversation';
import type { ChatPage } from '../fakes/webview-harness';
import { shownText } from '../support/shown-text';

const { openChat, screenshotPath } = useChatPages();

const COMMANDS: SlashItem[] = [
  { label: '/tools', detail: 'the tools of every ready server', insert: '/tools', runs: true },
  { label: '/prompts', detail: 'prompts and their arguments', insert: '/prompts', runs: true },
  { label: '/prompt <server>/<name> [k=v ...]', detail: 'send a prompt to the model', insert: '/prompt ', runs: false },
];

/** Answers the newest completeSlash request the page sent for `text` with `items`. */
async function answer(chat: ChatPage, text: string, items: SlashItem[]): Promise<void> {
  await chat.answerRequest('completeSlash', items, (params) => params.text === text);
}

const sent = async (chat: ChatPage): Promise<WebviewMessage[]> =>
  (await chat.posted()).filter((m) => (m.type === 'request' && m.method === 'send') || m.type === 'slash' || m.type === 'pickModel');

describe('chat webview: slash commands in the composer', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`the / list completes commands and their arguments by keyboard (${theme})`, async () => {
      const chat = await openChat({ theme, height: 520 });
      const { page } = chat;
      await chat.post({ type: 'state', state: readyState } satisfies HostMessage);
      const input = page.locator('#input');
      await input.focus();
      await page.keyboard.type('/');
      await answer(chat, '/', COMMANDS);
      const list = page.locator('#slash-list');
      await list.waitFor();
      assert.deepEqual(
        await list.locator('.mention-label').allTextContents(),
        COMMANDS.map((c) => c.label),
      );
      assert.equal(await input.getAttribute('aria-activedescendant'), 'slash-0');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      assert.equal(await list.locator('[aria-selected="true"] .mention-label').textContent(), COMMANDS[2]!.label);
      await page.screenshot({ path: screenshotPath(`slash-list-${theme}`) });

      // Enter on a command that takes arguments fills it in and asks for them; nothing is sent.
      await page.keyboard.press('Enter');
      assert.equal(await input.inputValue(), '/prompt ');
      await answer(chat, '/prompt ', [{ label: 'notes/review file=…', detail: 'Review a file', insert: '/prompt notes/review ', runs: true }]);
      await list.locator('.mention-label', { hasText: 'notes/review' }).waitFor();
      // Tab only fills in, even an item that could run.
      await page.keyboard.press('Tab');
      assert.equal(await input.inputValue(), '/prompt notes/review ');
      assert.deepEqual(await sent(chat), []);

      // Escape closes the list and leaves the text; Enter then runs the command through the host.
      await answer(chat, '/prompt notes/review ', [{ label: 'x', insert: '/x', runs: true }]);
      await list.waitFor();
      await page.keyboard.press('Escape');
      assert.equal(await list.isVisible(), false);
      await page.keyboard.type('file=a.md');
      await page.keyboard.press('Enter');
      assert.deepEqual(await sent(chat), [{ type: 'slash', text: '/prompt notes/review file=a.md' }]);
      assert.equal(await input.inputValue(), '');

      // Enter on a complete command runs it at once.
      await page.keyboard.type('/to');
      await answer(chat, '/to', [COMMANDS[0]!]);
      await list.locator('.mention-label', { hasText: '/tools' }).waitFor();
      await page.keyboard.press('Enter');
      assert.deepEqual((await sent(chat)).at(-1), { type: 'slash', text: '/tools' });
    });
  }

  test('Enter typed before the list caught up runs what was typed, not an item offered for an older text', async () => {
    const chat = await openChat();
    const { page } = chat;
    await chat.post({ type: 'state', state: readyState } satisfies HostMessage);
    await page.locator('#input').focus();
    await page.keyboard.type('/');
    await answer(chat, '/', COMMANDS);
    await page.locator('#slash-list').waitFor();
    await page.keyboard.type('help');
    await page.keyboard.press('Enter');
    assert.deepEqual(await sent(chat), [{ type: 'slash', text: '/help' }]);
  });

  test('unknown commands go to the host too (it says so); //x sends /x; /model opens the picker', async () => {
    const chat = await openChat();
    const { page } = chat;
    await chat.post({ type: 'state', state: readyState } satisfies HostMessage);
    await page.locator('#input').focus();
    for (const line of ['/nonsense here', '//etc/hosts is a path', '/model']) {
      await page.keyboard.type(line);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Enter');
    }
    const got = await sent(chat);
    assert.deepEqual(got[0], { type: 'slash', text: '/nonsense here' });
    assert.deepEqual(got[1], {
      type: 'request',
      id: got[1]?.type === 'request' ? got[1].id : -1,
      method: 'send',
      params: { text: '/etc/hosts is a path', attachments: [], images: [] },
    });
    assert.deepEqual(got[2], { type: 'pickModel' });
    assert.equal(got.length, 3);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`a listing keeps its lines; a prompt shows its name and each message under its role (${theme})`, async () => {
      const chat = await openChat({ theme, height: 560 });
      const { page } = chat;
      await chat.post({ type: 'state', state: readyState } satisfies HostMessage);
      const lines = ['notes__search  Search the notes', 'research__search_papers  Search arXiv for papers on a topic'];
      await chat.post({ type: 'event', event: { kind: 'notice', level: 'info', text: lines.join('\n'), listing: true } } satisfies HostMessage);
      await chat.post({
        type: 'event',
        event: {
          kind: 'user',
          id: 'p1',
          text: '/prompt notes/review file=a.md',
          attachments: [],
          at: 1,
          prompt: {
            server: 'notes',
            name: 'review',
            messages: [
              { role: 'user', text: 'Review a.md.' },
              { role: 'assistant', text: 'Which parts?' },
              { role: 'user', text: '[resource notes://files/a.md]\n# A' },
              { role: 'user', text: '[image, image/png]' },
            ],
          },
        },
      } satisfies HostMessage);
      const listing = page.locator('.notice-listing');
      assert.deepEqual(await listing.locator('.listing-key').allInnerTexts(), ['notes__search', 'research__search_papers']);
      assert.deepEqual(await listing.locator('.listing-detail').allTextContents(), [' Search the notes', ' Search arXiv for papers on a topic']);
      assert.equal(await listing.locator('.listing-line').count(), 2);
      const prompt = page.locator('.msg.user .prompt-sent');
      assert.equal(await shownText(prompt.locator('.prompt-name')), 'Prompt notes/review');
      assert.deepEqual(await prompt.locator('.prompt-role').allInnerTexts(), ['USER', 'ASSISTANT', 'USER', 'USER']);
      assert.deepEqual(await prompt.locator('.prompt-message').evaluateAll((els) => els.map((e) => e.getAttribute('data-role'))), [
        'user',
        'assistant',
        'user',
        'user',
      ]);
      await page.screenshot({ path: screenshotPath(`slash-listing-prompt-${theme}`) });
    });
  }
});
