// Messages queued during a long reply, in the real VS Code: each goes once, in order, one per end of a turn,
// however many times the host says it is idle as a turn ends (its state is posted again when the chat's
// totals are saved, which may land just after the turn's end or just before it).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';

const ROUNDS = 3;

describe('messages queued during a turn', () => {
  /** "think long N" is answered when the test lets round N's gate go; anything else is echoed at once. */
  const opens: Array<() => void> = [];
  const gates = Array.from({ length: ROUNDS }, () => new Promise<void>((open) => opens.push(open)));
  const model = (body: MessagesBody): Reply => {
    const said = lastUserText(body);
    const round = /^think long (\d+)$/.exec(said)?.[1];
    if (round) return { text: 'Here it is, after a long think.', gate: gates[Number(round) - 1] };
    return { text: `You asked: ${said}` };
  };
  const rig = chatRig('chat-queue', model);

  test('three messages queued during a reply are all sent, in order, each shown once (three times over)', async (t) => {
    const chat = await rig.vs.openChat();
    const input = chat.locator('#input');
    const written: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const long = `think long ${round}`;
      await input.fill(long);
      await input.press('Enter');
      await chat.locator('#stop').waitFor();
      const queued = [1, 2, 3].map((n) => `queued ${round}.${n}`);
      for (const text of queued) {
        await input.fill(text);
        await input.press('Enter');
      }
      await chat.locator('.queued .queued-text', { hasText: queued[2] }).waitFor();
      if (round === 1) t.diagnostic(`screenshot: ${await rig.vs.screenshot('queued-three')}`);
      written.push(long, ...queued);
      opens[round - 1]!();
      for (const text of queued) await chat.locator('.msg.assistant .markdown', { hasText: `You asked: ${text}` }).waitFor();
      await chat.locator('#send').waitFor();
    }
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('queued-all-sent')}`);
    const users = await chat.locator('.msg.user .user-text').allInnerTexts();
    assert.deepEqual(
      users.map((u) => u.trim()),
      written,
      'each message is in the chat once, in the order it was written',
    );
    assert.deepEqual(
      rig.api.requests.map((r) => lastUserText(r.body)),
      written,
      'each went to the model once, in order',
    );
    assert.equal(await chat.locator('.queued').isVisible(), false, 'nothing is left in the queue');
    assert.equal(await chat.getByText('A turn is still running').count(), 0, 'the host refused nothing');
  });
});
