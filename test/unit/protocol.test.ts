import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chatEventSchema, hostMessageSchema, webviewMessageSchema } from '../../src/common/protocol';
import { answer, Correlator, requestSchemas, type RequestHandlers, type RequestMessage } from '../../src/common/requests';

describe('the webview -> host protocol rejects what it does not know', () => {
  const rejected: Array<[string, unknown]> = [
    ['an unknown type', { type: 'runCommand', command: 'workbench.action.terminal.sendSequence' }],
    ['a spawn request', { type: 'spawn', command: '/bin/sh', args: ['-c', 'id'] }],
    ['a decision that is not one of the three', { type: 'approve', callId: 'x', decision: 'always-everything' }],
    ['a non-object', 'ready'],
    ['null', null],
  ];
  for (const [what, message] of rejected) {
    test(what, () => assert.equal(webviewMessageSchema.safeParse(message).success, false));
  }

  test('unknown extra fields are stripped, not passed on', () => {
    const parsed = webviewMessageSchema.parse({ type: 'stop', command: 'rm -rf /' });
    assert.deepEqual(parsed, { type: 'stop' });
  });

  test('a message to send: not empty, at most 50 attachments, and without any it gets empty lists', () => {
    const send = requestSchemas.send.params;
    assert.equal(send.safeParse({ text: '' }).success, false);
    assert.equal(send.safeParse({ text: 'hi', attachments: Array.from({ length: 51 }, (_, i) => `f${i}`) }).success, false);
    assert.deepEqual(send.parse({ text: 'hi' }), { text: 'hi', attachments: [], images: [] });
  });

  test('host messages are checked too (the webview validates on arrival)', () => {
    assert.equal(hostMessageSchema.safeParse({ type: 'event', event: { kind: 'html', html: '<script>' } }).success, false);
    assert.equal(hostMessageSchema.safeParse({ type: 'progress', callId: 'c', progress: 1 }).success, true);
  });
});

describe('approval_request carries what the card needs', () => {
  const base = { kind: 'approval_request', callId: 'c', server: 'workspace', tool: 'run_code', reason: 'Run Python code' };

  test('warnings, notes and which "always" to offer pass through', () => {
    const event = { ...base, warnings: ['No OS sandbox: ...'], notes: ['Sandboxed (bubblewrap), network off.'], alwaysKind: 'code' };
    assert.deepEqual(chatEventSchema.parse(event), event);
  });

  test('a chat saved before they existed still loads', () => {
    assert.deepEqual(chatEventSchema.parse(base), base);
  });

  test('an unknown kind of "always" or a warning that is not text is refused', () => {
    assert.equal(chatEventSchema.safeParse({ ...base, alwaysKind: 'everything' }).success, false);
    assert.equal(chatEventSchema.safeParse({ ...base, warnings: [{ html: '<b>x</b>' }] }).success, false);
  });
});

describe('requests with answers (shared/requests.ts)', () => {
  test('the correlator pairs answers with requests, checks results, and drops answers nobody waits for', async () => {
    const sent: RequestMessage[] = [];
    const c = new Correlator((m) => sent.push(m));
    const first = c.request('completeSlash', { text: '/to' });
    const second = c.request('completeMentions', { query: 'rea' });
    assert.deepEqual(
      sent.map((m) => [m.method, m.id]),
      [
        ['completeSlash', 0],
        ['completeMentions', 1],
      ],
    );
    c.settle({ type: 'response', id: 1, result: [{ kind: 'file', label: 'a', ref: 'a' }] });
    c.settle({ type: 'response', id: 0, result: [{ label: 'bad' }] });
    c.settle({ type: 'response', id: 7, result: [] });
    assert.deepEqual(await second, [{ kind: 'file', label: 'a', ref: 'a' }]);
    await assert.rejects(first, /invalid completeSlash result/);
  });

  test("the host checks params before a handler sees them, and a handler's failure is an answer too", async () => {
    const handlers: RequestHandlers = {
      completeMentions: async ({ query }) => [{ kind: 'file', label: query, ref: query }],
      completeSlash: () => {
        throw new Error('no hub');
      },
      send: () => ({ sent: true }),
      editMessage: () => ({ done: true }),
      regenerate: () => ({ done: true }),
    };
    assert.deepEqual(await answer({ type: 'request', id: 1, method: 'completeMentions', params: { query: 'x' } }, handlers), {
      type: 'response',
      id: 1,
      result: [{ kind: 'file', label: 'x', ref: 'x' }],
    });
    assert.match(
      (await answer({ type: 'request', id: 2, method: 'completeMentions', params: { query: 'x'.repeat(500) } }, handlers)).error ?? '',
      /invalid completeMentions params/,
    );
    assert.deepEqual(await answer({ type: 'request', id: 3, method: 'completeSlash', params: { text: '/' } }, handlers), {
      type: 'response',
      id: 3,
      error: 'no hub',
    });
    assert.equal(
      webviewMessageSchema.safeParse({ type: 'request', id: 4, method: 'runCommand', params: {} }).success,
      false,
      'an unknown method is refused on arrival',
    );
  });
});
