import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { newMeta, writeMeta } from '../../src/core/chat/chat-meta';
import { JsonlLog } from '../../src/core/chat/jsonl-log';

// A transcript holds whatever was read in the conversation (a git-ignored .env included): like oauth.json,
// its files are 0600 in 0700 folders.

const modeOf = (path: string): number => statSync(path).mode & 0o777;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'private-transcripts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("a chat's files are its owner's alone, and so are the folders made for them", { skip: process.platform === 'win32' }, async (t) => {
  const home = tempDir(t);
  const chats = join(home, 'chats', 'project-0123456789ab');
  const history = new ChatHistory(chats);
  const store = history.store('chat0001');
  await store.messages.append({ role: 'user', content: 'the secret in .env is hunter2' });
  await store.events.append({ kind: 'user', id: 'e1', text: 'hi', attachments: [], at: 1 } as Parameters<typeof store.events.append>[0]);
  await writeMeta(store.dir, newMeta('chat0001', 'claude-sonnet-5-5'));
  for (const dir of [join(home, 'chats'), chats, store.dir]) assert.equal(modeOf(dir), 0o700, dir);
  for (const file of ['messages.jsonl', 'events.jsonl', 'meta.json']) assert.equal(modeOf(join(store.dir, file)), 0o600, file);
});

test(
  'a log an earlier version left readable by all is made private when next written; a replaced one is private too',
  { skip: process.platform === 'win32' },
  async (t) => {
    const dir = join(tempDir(t), 'old-chat');
    mkdirSync(dir);
    const file = join(dir, 'messages.jsonl');
    writeFileSync(file, '{"n":1}\n');
    chmodSync(file, 0o644);
    const log = new JsonlLog(file, (v) => v);
    await log.append({ n: 2 });
    assert.equal(modeOf(file), 0o600);
    chmodSync(file, 0o644);
    await log.replace([{ n: 3 }]);
    assert.equal(log.lastError, undefined);
    assert.equal(modeOf(file), 0o600);
  },
);
