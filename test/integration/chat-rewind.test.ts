// Going back to one of the person's messages (edit and resend, regenerate): the chat and what the model is sent
// lose everything after it, on disk too; each message knows where it sits in the conversation through compaction
// and a reload that repairs it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newModelClient } from '../../src/core/agent/model-client';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { newChatId, newMeta, type ChatMeta } from '../../src/core/chat/chat-meta';
import { ChatSession, type TurnConfig } from '../../src/core/chat/chat-session';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { host, memoryStore } from '../fakes/tool-host';

/** The person's texts the model was sent, in order (tool results and the agent's own notes left out). */
function personTexts(body: MessagesBody): string[] {
  return body.messages
    .filter((m) => m.role === 'user' && !isToolResultTurn({ ...body, messages: [m] }))
    .map((m) =>
      lastUserText({ ...body, messages: [m] })
        .split('\n')
        .at(-1)!,
    );
}

function model(body: MessagesBody, index: number): Reply {
  const said = lastUserText(body);
  if (/^hang/.test(said)) return { hang: true };
  if (/pause/.test(said) && !body.messages.some((m) => m.role === 'assistant' && JSON.stringify(m.content).includes('paused half')))
    return { text: 'paused half', stopReason: 'pause_turn' };
  return { text: `answer ${index + 1} to: ${personTexts(body).join(' | ')}` };
}

const texts = (events: readonly ChatEvent[]): string[] =>
  events.flatMap((e) => (e.kind === 'user' ? [`you: ${e.text}`] : e.kind === 'assistant_text' ? [`model: ${e.text}`] : []));
const userId = (chat: ChatSession, text: string): string => (chat.events.find((e) => e.kind === 'user' && e.text === text) as { id: string }).id;

describe('a chat goes back to a message', () => {
  const api = new FakeAnthropicApi(model);
  let dir: string;
  let config: TurnConfig;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rewind-'));
    config = {
      client: newModelClient({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 }),
      model: 'claude-test',
      maxTokens: 1024,
      maxIterations: 5,
      toolTimeoutMs: 10_000,
      keyHint: 'set a key',
    };
  });
  const opened: ChatSession[] = [];
  after(async () => {
    await api.stop();
    // A chat's files are written after its turn ends too: the folder goes once they are (a CI run saw ENOTEMPTY).
    await Promise.all(opened.map((c) => c.flush()));
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (history: ChatHistory, meta: ChatMeta = newMeta(newChatId(), 'claude-test')): ChatSession => {
    const chat = new ChatSession({ meta, store: history.store(meta.id), host: host({}), workspace: undefined, approvals: memoryStore() });
    opened.push(chat);
    return chat;
  };

  test('edit: the message and all after it go; the new text is sent in its place, with only what came before', async () => {
    const history = new ChatHistory(join(dir, 'edit'));
    const chat = open(history);
    for (const text of ['first', 'second', 'third']) await chat.send(text, [], config);
    const rewound: Array<readonly ChatEvent[]> = [];
    chat.on('rewound', (events) => rewound.push(events));
    assert.deepEqual(await chat.rewindPlan(userId(chat, 'second'), 'edit'), {
      dropped: chat.events.slice(chat.events.findIndex((e) => e.kind === 'user' && e.text === 'second')),
    });

    assert.equal(await chat.rewind(userId(chat, 'second'), 'edit'), undefined);
    assert.deepEqual(texts(rewound[0]!), ['you: first', `model: answer 1 to: first`]);
    await chat.send('second, said better', [], config);
    assert.deepEqual(personTexts(api.requests.at(-1)!.body), ['first', 'second, said better'], 'the model never sees the old second and third');
    await chat.flush();

    const again = open(history, (await history.get(chat.id))!);
    await again.load();
    assert.deepEqual(texts(again.events), texts(chat.events), 'the chat on disk went back too');
    assert.deepEqual(again.messages, chat.messages);
  });

  test('regenerate: the message stays, its answer and what came after go, and the answer is asked for again', async () => {
    const history = new ChatHistory(join(dir, 'regenerate'));
    const chat = open(history);
    for (const text of ['one', 'two']) await chat.send(text, [], config);
    assert.equal(await chat.rewind(userId(chat, 'one'), 'regenerate'), undefined);
    assert.deepEqual(texts(chat.events), ['you: one']);
    assert.equal(await chat.retry(config), 'done');
    assert.deepEqual(personTexts(api.requests.at(-1)!.body), ['one']);
    assert.match(texts(chat.events).at(-1)!, /^model: answer \d+ to: one$/);
  });

  test('a message sent after a stopped one edits back to before the note that closed the stopped one; a message never sent cannot be gone back to', async () => {
    const history = new ChatHistory(join(dir, 'stopped'));
    const chat = open(history);
    await chat.send('unsent', [], undefined); // no key: shown, never sent
    assert.match(((await chat.rewindPlan(userId(chat, 'unsent'), 'edit')) as { why: string }).why, /never sent to the model/);
    const sent = api.requests.length;
    const stopped = chat.send('hang on', [], config);
    await api.waitForRequests(sent + 1);
    chat.stop();
    assert.equal(await stopped, 'stopped');
    await chat.send('beta', [], config);
    assert.deepEqual(
      chat.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
      'the stopped message, the note closing it, beta, its answer',
    );
    assert.equal(await chat.rewind(userId(chat, 'beta'), 'edit'), undefined);
    assert.deepEqual(
      chat.messages.map((m) => m.role),
      ['user'],
      'back to the stopped message, unanswered',
    );
    await chat.send('beta, better', [], config);
    const body = api.requests.at(-1)!.body;
    assert.deepEqual(personTexts(body), ['hang on', 'beta, better']);
    assert.match(JSON.stringify(body.messages[1]), /No reply to the message above/, 'the stopped message is closed again, never joined to the new one');
    assert.equal(await chat.rewind(userId(chat, 'hang on'), 'edit'), undefined);
    assert.deepEqual(chat.messages, []);
  });

  test('a compaction moves every span; a message whose start was summarised can be regenerated, not edited', async () => {
    const history = new ChatHistory(join(dir, 'compaction'));
    const chat = open(history);
    for (const text of ['a'.repeat(9000), 'b'.repeat(9000), 'c', 'd']) await chat.send(text, [], { ...config, contextWindow: 6_000 });
    const compacted = chat.events.filter((e) => e.kind === 'compaction');
    assert.ok(compacted.length > 0, 'the chat was compacted');
    const spans = chat.events.flatMap((e) => (e.kind === 'user' ? [e.span] : []));
    // Every span still points at its own message in what the model is sent now.
    for (const e of chat.events) {
      if (e.kind !== 'user' || !e.span) continue;
      const message = chat.messages[e.span.to - 1]!;
      assert.match(JSON.stringify(message.content), new RegExp(e.text.slice(0, 20)), `${e.text.slice(0, 5)}: ${JSON.stringify(e.span)}`);
    }
    assert.equal(spans[0], undefined, 'the first message is wholly in the summary');
    const b = (chat.events.find((e) => e.kind === 'user' && e.span && e.span.from === undefined) as { id: string } | undefined)?.id;
    assert.ok(b, `a message kept word for word after the summary, which starts with it: ${JSON.stringify(spans)}`);
    const why = await chat.rewindPlan(b, 'edit');
    assert.ok('why' in why && /summarised/.test(why.why), JSON.stringify(why));
    assert.ok('dropped' in (await chat.rewindPlan(b, 'regenerate')), 'its answer can still be asked for again');
    assert.equal(await chat.rewind(userId(chat, 'd'), 'edit'), undefined);
    await chat.send('d again', [], config);
    assert.match(JSON.stringify(api.requests.at(-1)!.body.messages[0]), /conversation_summary/, 'the summary stays');
    await chat.flush();
    const again = open(history, (await history.get(chat.id))!);
    await again.load();
    assert.deepEqual(
      again.events.flatMap((e) => (e.kind === 'user' ? [e.span] : [])),
      chat.events.flatMap((e) => (e.kind === 'user' ? [e.span] : [])),
    );
  });

  test('a paused reply stored as two messages is joined on reload, and the spans after it follow', async () => {
    const history = new ChatHistory(join(dir, 'pause'));
    const chat = open(history);
    await chat.send('pause please', [], config);
    await chat.send('after the pause', [], config);
    await chat.flush();
    const again = open(history, (await history.get(chat.id))!);
    await again.load();
    assert.ok(again.messages.length < chat.messages.length, 'the two replies of the paused turn are one message now');
    assert.equal(await again.rewind(userId(again, 'after the pause'), 'regenerate'), undefined);
    assert.equal(await again.retry(config), 'done');
    assert.deepEqual(personTexts(api.requests.at(-1)!.body), ['pause please', 'after the pause']);
    assert.equal(api.requests.at(-1)!.body.messages.at(-1)!.role, 'user');
  });

  test("an MCP prompt's several messages are one span: regenerate keeps them all", async () => {
    const history = new ChatHistory(join(dir, 'prompt'));
    const chat = open(history);
    await chat.send('hello', [], config);
    const result = {
      messages: [
        { role: 'user' as const, content: { type: 'text' as const, text: 'PROMPT-ONE' } },
        { role: 'assistant' as const, content: { type: 'text' as const, text: 'PROMPT-TWO' } },
        { role: 'user' as const, content: { type: 'text' as const, text: 'PROMPT-THREE' } },
      ],
    };
    await chat.sendPrompt({ server: 's', name: 'p', result }, config);
    const id = (chat.events.find((e) => e.kind === 'user' && e.prompt) as { id: string }).id;
    assert.equal(await chat.rewind(id, 'regenerate'), undefined);
    assert.equal(await chat.retry(config), 'done');
    const sent = JSON.stringify(api.requests.at(-1)!.body.messages);
    assert.ok(sent.indexOf('PROMPT-ONE') < sent.indexOf('PROMPT-TWO') && sent.indexOf('PROMPT-TWO') < sent.indexOf('PROMPT-THREE'), sent);
    assert.equal(api.requests.at(-1)!.body.messages.at(-1)!.role, 'user');
    assert.equal(await chat.rewind(id, 'edit'), undefined);
    assert.doesNotMatch(JSON.stringify(chat.messages), /PROMPT-/);
  });

  test('while a turn runs the chat does not go back', async () => {
    const history = new ChatHistory(join(dir, 'busy'));
    const chat = open(history);
    await chat.send('x', [], config);
    let release: () => void = () => undefined;
    api.setScript(() => ({ text: 'slow', gate: new Promise<void>((r) => (release = r)) }));
    const running = chat.send('y', [], config);
    await api.waitForRequests(api.requests.length + 1);
    assert.match((await chat.rewind(userId(chat, 'x'), 'edit'))!, /still running/);
    release();
    await running;
    api.setScript(model);
  });
});
