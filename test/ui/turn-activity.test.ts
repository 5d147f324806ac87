// A sign of life in the real VS Code: from Enter to the first token the chat says it waits for the model and
// for how long, and through the API's own retries after a 529 it says why and when it tries again. In a light
// theme and in a high-contrast one, at the default 300 px side bar.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessagesBody, Reply } from '../fakes/anthropic-api';
import { lastUserText } from '../fakes/anthropic-api';
import { chatRig, themeBlock } from './chat-rig';

const THEMES = [
  { name: 'light', setting: 'Default Light Modern' },
  { name: 'high-contrast', setting: 'Default High Contrast' },
];

describe('the chat shows that the agent is working, one window in each theme', () => {
  /** "hold…" is answered when the test lets it go; "overloaded…" gets a 529 asking for 3 s first. */
  const held: Array<() => void> = [];
  const overloaded = new Set<string>();
  const model = (body: MessagesBody, index: number): Reply => {
    const said = lastUserText(body);
    if (/^hold/.test(said)) return { text: 'Here it is, after a long think.', gate: new Promise<void>((release) => held.push(release)) };
    if (/^overloaded/.test(said) && !overloaded.has(said)) {
      overloaded.add(said);
      return { error: 529, retryAfterMs: 3_000 };
    }
    return { text: `Answered request ${index + 1}.` };
  };
  const rig = chatRig('turn-activity', model, {}, { 'workbench.colorTheme': THEMES[0]!.setting });
  for (const theme of THEMES) {
    describe(`the chat shows that the agent is working (${theme.name})`, () => {
      themeBlock(rig, `turn-activity-${theme.name}`, theme.setting);
      // Each block's model is as new: its first "overloaded" message is refused again.
      before(() => overloaded.clear());

      /** In a chat of its own, so no test reads another's answers. */
      async function send(text: string): Promise<ReturnType<typeof rig.vs.chatFrame>> {
        const chat = await rig.vs.openChat();
        await rig.vs.runCommand('MCP Agent: New Chat');
        await chat.locator('.msg').first().waitFor({ state: 'detached' });
        await chat.locator('#input').fill(text);
        await chat.locator('#input').press('Enter');
        return chat;
      }

      test('between Enter and the first token it counts the wait for the model', async (t) => {
        const chat = await send('hold on');
        const line = chat.locator('.working');
        await line.getByText(/^Waiting for the model… [1-9]\d* s$/).waitFor();
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('waiting')}`);
        held.shift()!();
        await chat.locator('.msg.assistant .markdown', { hasText: 'after a long think' }).waitFor();
        await line.waitFor({ state: 'hidden' });
        await chat.locator('#send').waitFor();
      });

      test("after a 529 it says the API is overloaded and counts down to the SDK's next try", async (t) => {
        const sent = rig.api.requests.length;
        const chat = await send('overloaded again');
        const line = chat.locator('.working[data-kind="retry"]');
        await line.getByText(/^The API is overloaded; retrying in [1-3] s \(try 2 of 3\)$/).waitFor();
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('retrying')}`);
        await chat.locator('.msg.assistant .markdown', { hasText: `Answered request ${sent + 2}.` }).waitFor();
        await chat.locator('.working').waitFor({ state: 'hidden' });
        assert.equal(rig.api.requests.length, sent + 2, 'the SDK tried again once, by itself');
        assert.equal(await chat.locator('.turn-end[data-status="error"]').count(), 0, 'the retry worked: no failure is shown');
      });
    });
  }
});
