import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { sessionPath, sessions, startOrchestrator, textOf, writeFiles, type Orchestrator } from './orchestrator-harness';
import { scaled } from '../support/until';

/**
 * A sub-agent's transcript holds whatever it read (a git-ignored .env included): it is kept beside the
 * person's chats under MCP_AGENT_HOME, never in the work tree, as private files; sessions an earlier
 * version kept in the workspace are moved there at start and resume as before.
 */

const modeOf = (path: string): number => statSync(path).mode & 0o777;

/** A session record as versions before this one wrote it into `.mcp-agent/sessions/<name>/session.json`. */
function oldRecord(name: string, status = 'done'): string {
  const at = '2025-01-02T03:04:05.000Z';
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };
  return `${JSON.stringify({ name, agent: 'general', model: 'claude-sonnet-5-5', status, created: at, lastActivity: at, turns: 1, usage }, null, 2)}\n`;
}

function oldMessages(prompt: string, answer: string): string {
  return `${JSON.stringify({ role: 'user', content: prompt })}\n${JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: answer }] })}\n`;
}

describe('session files', () => {
  let api: FakeAnthropicApi;
  let reply: (body: MessagesBody) => Reply = () => ({ text: 'nothing scripted' });
  const dirs: string[] = [];
  const open: Orchestrator[] = [];

  const temp = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const start = async (workspace: string, home: string): Promise<Orchestrator> => {
    const o = await startOrchestrator(workspace, { env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home } });
    open.push(o);
    return o;
  };

  before(async () => {
    api = new FakeAnthropicApi((body) => reply(body));
    await api.start();
  });

  after(async () => {
    await Promise.all(open.map((o) => o.close().catch(() => undefined)));
    await api?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('a session is kept beside the chats under MCP_AGENT_HOME, 0600 in 0700 folders, and nothing of it lands in the work tree', async () => {
    const workspace = temp('orch-files-');
    const home = temp('orch-files-home-');
    const orch = await start(workspace, home);
    reply = () => ({ text: 'Read it.' });
    const r = await orch.call('start_agent', { session_name: 'private', prompt: 'The .env says API_TOKEN=hunter2' });
    assert.ok(!r.isError, textOf(r));

    assert.deepEqual(readdirSync(workspace), [], 'the work tree holds no transcript for git add to pick up');
    const messages = sessionPath(home, workspace, 'private', 'messages.jsonl');
    assert.match(readFileSync(messages, 'utf8'), /hunter2/);
    assert.equal(modeOf(messages), 0o600);
    assert.equal(modeOf(sessionPath(home, workspace, 'private', 'session.json')), 0o600);
    for (const dir of [join(home, 'sessions'), sessionPath(home, workspace), sessionPath(home, workspace, 'private')]) assert.equal(modeOf(dir), 0o700, dir);
  });

  test('sessions an earlier version kept in the workspace are moved beside the chats at start, and resume with their history', async () => {
    const workspace = temp('orch-files-old-');
    const home = temp('orch-files-old-home-');
    const outside = temp('orch-files-outside-');
    writeFiles(outside, { 'session.json': oldRecord('linked'), 'messages.jsonl': oldMessages('from outside', 'no') });
    writeFiles(workspace, {
      '.mcp-agent/sessions/old/session.json': oldRecord('old'),
      '.mcp-agent/sessions/old/messages.jsonl': oldMessages('the prompt from before the upgrade', 'the answer from before'),
      // Killed mid-turn under the old version: moved, then marked interrupted like any other.
      '.mcp-agent/sessions/cut/session.json': oldRecord('cut', 'running'),
      '.mcp-agent/papers/ml/papers_info.json': '{}',
    });
    // A session folder that is a symlink leading out was never used, and is not now.
    symlinkSync(outside, join(workspace, '.mcp-agent', 'sessions', 'linked'));

    const orch = await start(workspace, home);
    const listed = await sessions(orch);
    assert.deepEqual(listed.map((s) => s.name).sort(), ['cut', 'old']);
    assert.equal(listed.find((s) => s.name === 'cut')?.status, 'interrupted');
    assert.equal(existsSync(join(workspace, '.mcp-agent', 'sessions', 'old')), false, 'moved out of the work tree');
    assert.equal(existsSync(join(workspace, '.mcp-agent', 'sessions', 'cut')), false);
    assert.ok(existsSync(join(workspace, '.mcp-agent', 'sessions', 'linked')), 'what is not a session folder stays in sight');
    assert.ok(existsSync(join(workspace, '.mcp-agent', 'papers', 'ml', 'papers_info.json')), 'the rest of .mcp-agent is left alone');
    assert.equal(modeOf(sessionPath(home, workspace, 'old', 'messages.jsonl')), 0o600);
    assert.equal(modeOf(sessionPath(home, workspace, 'old')), 0o700);
    assert.deepEqual(readdirSync(outside).sort(), ['messages.jsonl', 'session.json'], "nothing taken from or written to the symlink's target");

    reply = (body) => ({ text: `seen: ${lastUserText(body)}` });
    const sent = api.requests.length;
    const r = await orch.call('resume_agent', { session_name: 'old', prompt: 'go on' });
    assert.ok(!r.isError, textOf(r));
    const history = JSON.stringify(api.requests[sent]!.body.messages);
    assert.match(history, /the prompt from before the upgrade/);
    assert.match(history, /the answer from before/);
    assert.equal((await sessions(orch)).find((s) => s.name === 'old')?.turns, 2);
  });

  // The timeout only stops a run whose server never says it: the test waits on the server's stderr.
  test('an old session whose name is taken beside the chats stays in the workspace, and neither is lost', { timeout: scaled(30_000) }, async () => {
    const workspace = temp('orch-files-taken-');
    const home = temp('orch-files-taken-home-');
    mkdirSync(sessionPath(home, workspace, 'same'), { recursive: true });
    writeFiles(sessionPath(home, workspace, 'same'), { 'session.json': oldRecord('same').replace('2025-01-02', '2025-06-07') });
    writeFiles(workspace, { '.mcp-agent/sessions/same/session.json': oldRecord('same') });
    const orch = await start(workspace, home);
    assert.deepEqual(
      (await sessions(orch)).map((s) => s.name),
      ['same'],
    );
    assert.ok(existsSync(join(workspace, '.mcp-agent', 'sessions', 'same', 'session.json')));
    await orch.untilStderr(/a session named same exists already .*stays in \.mcp-agent\/sessions\/same/);
  });
});
