// The chat history, the token lines and the model picker, in a real VS Code against the fake API.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { defaultModels } from '../fakes/fake-models';
import { chatRig } from './chat-rig';
import { shownText } from '../support/shown-text';

const reply = (body: MessagesBody): Reply =>
  /getting too long for the context window/.test(lastUserText(body))
    ? { text: '**Summary.** The person is planning a garden: raised beds on the south side, tomatoes and basil first, a drip line from the rain barrel.' }
    : { text: `Answer to: ${lastUserText(body).slice(-200)}` };

describe('chat history, tokens and models in a real VS Code', () => {
  const rig = chatRig('history', reply);

  async function ask(text: string): Promise<void> {
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill(text);
    await chat.locator('#input').press('Enter');
    await chat
      .locator('.msg.assistant .markdown', { hasText: text.length > 150 ? text.slice(-60) : `Answer to: ${text}` })
      .last()
      .waitFor()
      .catch(async (err: unknown) => {
        // Seen once in a loaded full run (no turn started): what the composer held, for next time.
        const composer = await chat
          .locator('#composer, .composer')
          .first()
          .evaluate((el) => el.outerHTML.slice(0, 1500))
          .catch(() => 'no composer');
        console.error(`ask(${JSON.stringify(text.slice(0, 40))}) got no answer; composer: ${composer}; requests: ${rig.api.requests.length}`);
        console.error(`screenshot: ${await rig.vs.screenshot('ask-unanswered')}`);
        throw err;
      });
  }

  async function pick(label: string | RegExp): Promise<void> {
    const row = rig.vs.page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
    await row.waitFor();
    await row.click();
  }

  test("each turn shows its tokens and cost, the footer the chat's total", async (t) => {
    await ask('Plan the garden');
    const chat = rig.vs.chatFrame();
    const line = chat.locator('.msg.assistant .turn-usage').last();
    await line.waitFor();
    assert.match(await shownText(line), /^[\d.]+k? in(?: \([^)]*cache\))? · \d+ out$/, 'claude-test has no price: tokens only');
    assert.match((await line.getAttribute('title')) ?? '', /input read from the cache: [\d,]+\n[\s\S]*cost: unknown for this model/);
    assert.match(await shownText(chat.locator('.composer-hint')), /chat: [\d.]+k? tokens/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('token-line')}`);
  });

  /** A new chat with one turn: each test makes the chats it needs, whatever the tests before it left. */
  async function newChat(text: string): Promise<void> {
    await rig.vs.runCommand('MCP Agent: New Chat');
    await rig.vs.chatFrame().locator('.msg').first().waitFor({ state: 'detached' });
    await ask(text);
    await rig.vs.waitForTreeItem('Chats', text);
  }

  test('New Chat keeps the old one; the Chats view lists both and reopens the older', async (t) => {
    await newChat('Sketch the shed');
    await newChat('Write release notes');
    const chat = rig.vs.chatFrame();
    const items = await rig.vs.treeItems('Chats');
    assert.deepEqual(
      items.slice(0, 2).map((i) => i.label),
      ['Write release notes', 'Sketch the shed'],
      'newest first',
    );
    assert.match(items[0]!.description, /^open · /);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('chats-view')}`);
    // A click that lands while VS Code redraws the rows finds the row's command gone ("Actual command not found"
    // in the workbench console, seen once in a CI run) and opens nothing: a person clicks again, and so does this.
    const older = chat.locator('.msg.user', { hasText: 'Sketch the shed' });
    for (let i = 0; i < 3 && !(await older.isVisible()); i++) {
      await (await rig.vs.waitForTreeItem('Chats', 'Sketch the shed')).locator('.label-name').click();
      await older.waitFor({ timeout: 15_000 }).catch(() => undefined);
    }
    await older.waitFor().catch(async (err: unknown) => {
      // What the window showed and which chat the view called open, for the next time this is seen.
      const rows = (await rig.vs.treeItems('Chats')).map((i) => `${i.label} (${i.description})`);
      t.diagnostic(`chats: ${rows.join('; ')}; screenshot: ${await rig.vs.screenshot('older-not-shown')}`);
      throw err;
    });
    assert.equal(await chat.locator('.msg.user', { hasText: 'Write release notes' }).count(), 0);
    await rig.vs.waitForTreeItem('Chats', /Sketch the shed\s*open ·/);
  });

  test('Rename and Delete from the palette: the list follows; delete asks first', async (t) => {
    await newChat('Plan the pond');
    await newChat('Draft the invitation');
    await rig.vs.runCommand('MCP Agent: Rename Chat…');
    await pick('Plan the pond');
    await rig.vs.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Rename chat' }).waitFor();
    const input = rig.vs.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('Pond plan for spring');
    await input.press('Enter');
    await rig.vs.waitForTreeItem('Chats', 'Pond plan for spring');

    await rig.vs.runCommand('MCP Agent: Delete Chat…');
    await pick('Draft the invitation');
    const dialog = rig.vs.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.match(await shownText(dialog), /Delete the chat “Draft the invitation”\?/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('delete-asks')}`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await rig.vs.page.locator('.part.sidebar .monaco-list-row', { hasText: 'Draft the invitation' }).waitFor({ state: 'detached' });
    const labels = (await rig.vs.treeItems('Chats')).map((i) => i.label);
    assert.ok(labels.includes('Pond plan for spring'), `renamed chat listed: ${labels.join('; ')}`);
    assert.ok(!labels.includes('Plan the pond') && !labels.includes('Draft the invitation'), `old name and deleted chat gone: ${labels.join('; ')}`);
  });

  test('the model button opens the picker: active models newest first, deprecated marked, retired hidden; the choice is used', async (t) => {
    const chat = await rig.vs.openChat();
    await chat.locator('.model-button', { hasText: 'claude-test' }).click();
    const rows = rig.vs.page.locator('.quick-input-widget .monaco-list-row');
    await rows.filter({ hasText: 'Claude Opus 5.5' }).first().waitFor();
    const texts = await rows.allInnerTexts();
    assert.match(texts[0]!, /Automatic/);
    assert.ok(
      texts.some((r) => /Claude Sonnet 4\.5[\s\S]*deprecated: retires 2026-11-30/.test(r)),
      texts.join('\n---\n'),
    );
    assert.ok(!texts.some((r) => /Claude Sonnet 4\b(?!\.)/.test(r)), 'the retired model is not offered');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('model-picker')}`);
    await pick('Claude Opus 5.5');
    // The picker gives the focus back to the chat as it closes: typing before then can land in the closing picker.
    await rig.vs.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await chat.locator('.model-button', { hasText: 'claude-opus-5-5' }).waitFor();
    await ask('Which model?');
    assert.equal(rig.api.requests.at(-1)!.body.model, 'claude-opus-5-5');
    const line = chat.locator('.msg.assistant .turn-usage').last();
    assert.match(await shownText(line), / · \$0\.\d+$/, 'a priced model shows its cost');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('priced-turn')}`);
  });

  test('a chat that outgrows a small window is compacted, with a marker that opens to the summary', async (t) => {
    rig.api.models = [
      ...defaultModels(),
      { ...defaultModels()[1]!, id: 'claude-small', display_name: 'Claude Small (test)', created_at: '2020-01-01T00:00:00Z', max_input_tokens: 9000 },
    ];
    const chat = await rig.vs.openChat();
    await chat.locator('.model-button').click();
    await pick('Claude Small (test)');
    await chat.locator('.model-button', { hasText: 'claude-small' }).waitFor();
    for (let i = 1; i <= 10 && (await chat.locator('.compaction').count()) === 0; i++) {
      await ask(`Garden note ${i}: ${'raised beds, tomatoes, basil and a drip line from the rain barrel; '.repeat(40)}`);
    }
    const marker = chat.locator('.compaction').first();
    await marker.waitFor();
    assert.match(await shownText(marker.locator('summary')), /Conversation compacted: \d+ earlier messages? summarised/);
    await marker.locator('summary').click();
    await marker.locator('.markdown', { hasText: 'raised beds on the south side' }).waitFor();
    await marker.scrollIntoViewIfNeeded();
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('compacted')}`);
  });
});
