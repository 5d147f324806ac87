// Every state of the chat in VS Code's four theme kinds at side-bar widths (320 and 400 px): each text has a
// WCAG contrast of at least 4.5:1 measured from computed colours, and nothing makes the page scroll sideways.
// One page per theme and width, the states rendered on it in sequence; screenshots go to
// .test-artifacts/screenshots/ for a person to look at.
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { HostMessage } from '../../src/common/protocol';
import type { ChatPage } from '../fakes/webview-harness';
import { useChatPages } from '../fakes/webview-pages';
import { lowContrast, measureContrast, pageOverflow } from '../fakes/webview-contrast';
import { STAGES } from '../fakes/webview-states';
import { THEMES } from '../fakes/webview-themes';
import { readyState } from '../fakes/webview-conversation';

const { openChat, scrollToTopByWheel, screenshotPath } = useChatPages();

/** Measures what is on the page now; every failure is reported together, named by stage. */
async function check(t: TestContext, chat: ChatPage, stage: string, problems: string[]): Promise<void> {
  const measured = await measureContrast(chat.page);
  assert.ok(measured.length > 0, `${stage}: no text measured; the check would prove nothing`);
  const worst = [...measured].sort((a, b) => a.ratio - b.ratio)[0];
  if (worst) t.diagnostic(`${stage}: ${measured.length} texts, lowest ${worst.ratio.toFixed(2)}:1 (${worst.where} "${worst.text}")`);
  problems.push(...lowContrast(measured).map((m) => `${stage}: ${m}`));
  problems.push(...(await pageOverflow(chat.page)).map((m) => `${stage}: overflow ${m}`));
}

async function shoot(chat: ChatPage, name: string): Promise<void> {
  await chat.page.screenshot({ path: screenshotPath(name) });
}

async function post(chat: ChatPage, messages: HostMessage[]): Promise<void> {
  for (const m of messages) await chat.post(m);
}

describe('chat webview in every theme kind', () => {
  for (const theme of THEMES) {
    for (const width of [320, 400]) {
      test(`${theme}, ${width}px: every state readable, nothing overflows`, async (t) => {
        const chat = await openChat({ theme, width, height: 800 });
        const { page } = chat;
        const problems: string[] = [];
        const name = (stage: string): string => `theme-${theme}-${width}-${stage}`;

        for (const stage of STAGES) {
          await post(chat, stage.messages);
          await page.locator(stage.ready).first().waitFor();
          if (stage.name === 'conversation') {
            // Open what is folded, so its text is measured too: the SQL card, the errored card, thinking, compaction.
            for (const id of ['sql', 'err', 'den']) await page.click(`.tool-card[data-call-id="${id}"] .tool-header`);
            await page.locator('.tool-card[data-call-id="sql"] table.sql-table').waitFor();
            await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
            await page.locator('.thinking-text').waitFor();
            // The six-column table is wider than the chat: it must scroll inside its own box (checked below: the page does not).
            const table = await page
              .locator('.markdown table')
              .first()
              .evaluate((t): [number, number] => [t.scrollWidth, t.clientWidth]);
            assert.ok(table[0] > table[1], `the table scrolls sideways inside itself (${table[0]} > ${table[1]})`);
          }
          await check(t, chat, stage.name, problems);
          await shoot(chat, name(stage.name));
          if (stage.name === 'conversation') {
            await page.evaluate(() => document.getElementById('scroller')!.scrollTo({ top: 0 }));
            await shoot(chat, name('conversation-top'));
            await page.locator('.markdown table').first().scrollIntoViewIfNeeded();
            await shoot(chat, name('conversation-answer'));
            await page.locator('.checkpoint-left').scrollIntoViewIfNeeded();
            await shoot(chat, name('conversation-checkpoint'));
          }
        }

        // The `@` popup (one item refused, with why) and the chip a picked item becomes.
        await page.fill('#input', 'compare with @rea');
        const asked = await chat.answerRequest('completeMentions', [
          { kind: 'file', label: 'reading-list.md', detail: 'notes', ref: 'notes/reading-list.md' },
          { kind: 'folder', label: 'reports', detail: 'folder', ref: 'reports' },
          { kind: 'file', label: 'readings.sqlite', detail: 'data', ref: 'data/readings.sqlite', refused: 'binary file: cannot be attached' },
          { kind: 'problems', label: 'Problems', detail: '3 errors, 1 warning', ref: '@problems' },
        ]);
        assert.equal(asked.query, 'rea');
        await page.locator('.mention-popup .mention-item').first().waitFor();
        await check(t, chat, 'mention-popup', problems);
        await shoot(chat, name('mention-popup'));
        await page.press('#input', 'Enter');
        await page.locator('.composer .attachment-chip').first().waitFor();
        await check(t, chat, 'chips', problems);

        // A reader who scrolled up while the answer goes on gets "jump to latest".
        await scrollToTopByWheel(page);
        const para = Array.from({ length: 20 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
        await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't5', blockId: 'late', text: para } });
        await page.locator('.jump-latest').waitFor();
        await check(t, chat, 'jump-latest', problems);
        await shoot(chat, name('jump-latest'));

        // A message opened for editing, with the host's reason it could not go back, and the answers' actions.
        await chat.post({ type: 'state', state: { ...readyState, busy: false } });
        await page.locator('.user-actions[data-for="u1"] .edit-message').click();
        await page.locator('.msg.user.editing .edit-input').press('Enter');
        await chat.answerRequest('editMessage', { done: false, why: 'The conversation before this message was summarised to fit the context window.' });
        await page.locator('.edit-why', { hasText: 'summarised' }).waitFor();
        await check(t, chat, 'editing', problems);
        await shoot(chat, name('editing'));

        assert.deepEqual(await chat.cspViolations(), []);
        assert.deepEqual(problems, []);
      });
    }
  }
});
