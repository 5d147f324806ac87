// Message actions in the real VS Code against the fake Messages API: edit a message and resend from there,
// restoring the files the agent changed since (through the turns' checkpoints); regenerate an answer; copy an
// answer as Markdown. In a light theme and a high-contrast one.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig, themeBlock } from './chat-rig';
import { shownText } from '../support/shown-text';

/** The person's texts the model was sent (tool results left out). */
function personTexts(body: MessagesBody): string[] {
  return body.messages.filter((m) => m.role === 'user' && !isToolResultTurn({ ...body, messages: [m] })).map((m) => lastUserText({ ...body, messages: [m] }));
}

/** "write <file> saying <text>" writes the file; anything else is answered with a numbered Markdown list. */
function model(body: MessagesBody, index: number): Reply {
  const said = lastUserText(body);
  if (isToolResultTurn(body)) return { text: 'Written.' };
  const write = /write (\S+) saying (.+)/.exec(said);
  if (write) return { text: `Writing ${write[1]}.`, toolUses: [{ name: 'workspace__write_file', input: { path: write[1], content: `${write[2]}\n` } }] };
  return { text: `Answer ${index + 1}:\n\n- one **point**\n- another` };
}

const THEMES = [
  { name: 'light', setting: 'Default Light Modern' },
  { name: 'high-contrast', setting: 'Default High Contrast' },
];

describe('message actions, one window in each theme', () => {
  const rig = chatRig('message-actions', model, { 'README.md': '# notes\n' }, { 'workbench.colorTheme': THEMES[0]!.setting });
  for (const theme of THEMES) {
    describe(`message actions (${theme.name})`, () => {
      themeBlock(rig, `message-actions-${theme.name}`, theme.setting);
      // The workspace as it started (the first test has the agent create notes.md),
      // and an empty clipboard, so the copy test reads this block's copy.
      before(async () => {
        rmSync(join(rig.vs.workspace, 'notes.md'), { force: true });
        await rig.vs.page.evaluate(() => navigator.clipboard.writeText(''));
      });

      /** A chat of its own, so no test reads another's messages. */
      async function freshChat(): Promise<FrameLocator> {
        const chat = await rig.vs.openChat();
        await rig.vs.runCommand('MCP Agent: New Chat');
        await chat.locator('.msg').first().waitFor({ state: 'detached' });
        return chat;
      }

      async function send(chat: FrameLocator, text: string): Promise<void> {
        await chat.locator('#input').fill(text);
        await chat.locator('#input').press('Enter');
        await chat.locator('.msg.user', { hasText: text }).waitFor();
      }

      async function allow(chat: FrameLocator): Promise<void> {
        await chat.locator('.approval[data-state="pending"] button[data-decision="once"]').click();
      }

      test('edit and resend: the message and all after it go, and the files the agent changed since are restored first', async (t) => {
        const { vs } = rig;
        const chat = await freshChat();
        const file = join(vs.workspace, 'notes.md');
        await send(chat, 'write notes.md saying first draft');
        await allow(chat);
        await chat.locator('.checkpoint .restore').waitFor();
        assert.equal(readFileSync(file, 'utf8'), 'first draft\n');
        await send(chat, 'thanks');
        await chat.locator('.msg.assistant .markdown', { hasText: /^Answer \d+:/ }).waitFor();
        await chat.locator('#send').waitFor();

        const first = chat.locator('.msg.user', { hasText: 'first draft' });
        const id = await first.getAttribute('data-id');
        await first.hover();
        await chat.locator(`.user-actions[data-for="${id}"] .edit-message`).click();
        // Being edited, the message holds a text box: found by its id, not its text.
        const box = chat.locator(`.msg.user[data-id="${id}"] textarea.edit-input`);
        await box.fill('write notes.md saying second draft');
        t.diagnostic(`screenshot: ${await vs.screenshot('editing')}`);
        await box.press('Enter');

        const dialog = vs.page.locator('.monaco-dialog-box');
        await dialog.getByText('The agent changed 1 file since this message.').waitFor();
        assert.match(await shownText(dialog), /notes\.md[\s\S]*The 1 later message and its answer go from the chat/);
        t.diagnostic(`screenshot: ${await vs.screenshot('restore-question')}`);
        await dialog.getByRole('button', { name: 'Restore Files and Resend' }).click();

        // Restored before the new turn writes: the file the first turn created is gone while the new write waits.
        await chat.locator('.approval[data-state="pending"]').waitFor();
        assert.equal(existsSync(file), false, 'notes.md, created by the turn gone back over, was removed');
        await chat.locator('.notice', { hasText: 'Restored 1 file to before the message: notes.md.' }).waitFor();
        assert.deepEqual(await chat.locator('.msg.user').allInnerTexts(), ['write notes.md saying second draft']);
        await allow(chat);
        await chat.locator('.msg.assistant .markdown', { hasText: 'Written.' }).waitFor();
        assert.equal(readFileSync(file, 'utf8'), 'second draft\n');
        assert.deepEqual(
          personTexts(rig.api.requests.at(-1)!.body),
          ['write notes.md saying second draft'],
          'the model never sees the first draft or "thanks"',
        );
        t.diagnostic(`screenshot: ${await vs.screenshot('resent')}`);
      });

      test('regenerate asks for the answer again with only its question; copy gives the answer as Markdown', async (t) => {
        const { vs } = rig;
        const chat = await freshChat();
        await send(chat, 'what is a list?');
        const answer = chat.locator('.msg.assistant');
        await answer.locator('.markdown', { hasText: /^Answer \d+:/ }).waitFor();
        await chat.locator('#send').waitFor();

        await answer.locator('.copy-answer').click();
        await answer.locator('.copy-answer.copied').waitFor();
        // The page asks the host, which writes the clipboard through the workbench: read it each frame until it is
        // there (a minute at most).
        const copied = await vs.page.evaluate(
          () =>
            new Promise<string>((resolve, reject) => {
              const deadline = setTimeout(() => reject(new Error('nothing reached the clipboard')), 60_000);
              const look = (): void =>
                void navigator.clipboard.readText().then((text) => {
                  if (!text.startsWith('Answer')) return requestAnimationFrame(look);
                  clearTimeout(deadline);
                  resolve(text);
                }, reject);
              look();
            }),
        );
        assert.match(copied, /^Answer \d+:\n\n- one \*\*point\*\*\n- another$/);

        const before = rig.api.requests.length;
        await answer.locator('.regenerate').click();
        await chat.locator('.msg.assistant .markdown', { hasText: `Answer ${before + 1}:` }).waitFor();
        assert.equal(await chat.locator('.msg.assistant').count(), 1, 'the old answer is gone');
        assert.equal(await chat.locator('.msg.user').count(), 1);
        assert.deepEqual(
          rig.api.requests.at(-1)!.body.messages.map((m) => m.role),
          ['user'],
          'asked again with the question alone',
        );
        assert.equal(await vs.page.locator('.monaco-dialog-box').count(), 0, 'nothing to lose, so nothing is asked');
        await chat.locator('.msg.user').hover();
        t.diagnostic(`screenshot: ${await vs.screenshot('regenerated')}`);
      });
    });
  }
});
