// The chat in VS Code's four built-in theme kinds: every kind of text it draws must be readable,
// measured from the computed colours (WCAG contrast, at least 4.5:1), and looked at in a screenshot.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { measureContrast } from '../fakes/contrast';
import { chatRig, themeBlock } from './chat-rig';

const THEMES = ['Default Light Modern', 'Default Dark Modern', 'Default High Contrast', 'Default High Contrast Light'];

const ANSWER = [
  'Here is `inline code` and a [link](https://example.com).',
  '',
  '```python',
  '# a comment',
  'def total(books: list[dict]) -> int:',
  '    return sum(b["year"] for b in books if b["genre"] == "Fantasy")  # 42',
  '```',
  '',
  '| Title | Year |',
  '| --- | --- |',
  '| Foundation | 1951 |',
  '',
  '> A quote.',
].join('\n');

/** What the chat draws text in; each is checked wherever it appears. */
const SELECTORS = [
  '.msg.user .user-text',
  '.markdown p',
  '.markdown :not(pre) > code',
  '.markdown a[href]',
  '.code-block code',
  '.code-block code span',
  '.markdown th',
  '.markdown td',
  '.markdown blockquote',
  '.turn-end[data-status="error"] span',
  '.composer textarea',
  '.thinking > summary span',
  '.turn-usage',
  '.model-button .model-name',
  '.composer-hint',
];

describe('the chat is readable in every theme kind', () => {
  const rig = chatRig(
    'themes',
    (body) =>
      /fail/.test(JSON.stringify(body.messages.at(-1)))
        ? { error: 400, message: 'This request failed on purpose.' }
        : { text: ANSWER, thinking: 'The person wants to see code, a table and a quote.' },
    {},
    { 'workbench.colorTheme': THEMES[0] },
  );

  for (const theme of THEMES) {
    describe(theme, () => {
      themeBlock(rig, `theme-${theme.toLowerCase().replace(/\s+/g, '-')}`, theme);

      test('every text has a contrast of at least 4.5:1 against what is behind it', async (t) => {
        const { vs } = rig;
        const chat = await vs.openChat();
        await chat.locator('#input').fill('show me code');
        await chat.locator('#input').press('Enter');
        await chat.locator('.code-block code span').first().waitFor();
        await chat.locator('.turn-usage').first().waitFor();
        await chat.locator('#send').waitFor({ state: 'visible' }); // the first turn is over
        await chat.locator('#input').fill('now fail');
        await chat.locator('#input').press('Enter');
        await chat.locator('.turn-end[data-status="error"]').waitFor();
        t.diagnostic(`screenshot: ${await vs.screenshot('chat')}`);
        const vars = await chat.locator('body').evaluate(() => {
          const root = getComputedStyle(document.documentElement);
          const cb = document.querySelector('.code-block');
          return {
            editorBg: root.getPropertyValue('--vscode-editor-background'),
            sideBarBg: root.getPropertyValue('--vscode-sideBar-background'),
            codeBlockVar: root.getPropertyValue('--vscode-textCodeBlock-background'),
            htmlBg: root.backgroundColor,
            bodyBg: getComputedStyle(document.body).backgroundColor,
            codeBlockBg: cb ? getComputedStyle(cb).backgroundColor : '',
            bodyClass: document.body.className,
          };
        });
        t.diagnostic(JSON.stringify(vars));
        const measured = await measureContrast(chat.locator('body'), SELECTORS);
        for (const s of SELECTORS.filter((x) => x !== '.composer textarea')) {
          assert.ok(
            measured.some((m) => m.selector === s),
            `nothing matched ${s}: the check would prove nothing`,
          );
        }
        const low = measured.filter((m) => m.ratio < 4.5);
        const worst = [...measured].sort((a, b) => a.ratio - b.ratio)[0];
        if (worst) t.diagnostic(`${measured.length} texts; lowest ${worst.ratio.toFixed(2)} (${worst.selector} "${worst.text}")`);
        assert.deepEqual(
          low.map((m) => `${m.selector} "${m.text}" ${m.ratio.toFixed(2)} (rgb ${m.fg} on ${m.bg})`),
          [],
        );
      });
    });
  }
});
