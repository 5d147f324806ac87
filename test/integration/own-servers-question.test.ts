// A question about the workspace's servers (the editor's modal) may stay open for as long as the person likes: the
// person's own servers (the mcpAgent.servers setting) start meanwhile; the workspace's start once agreed to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOwnSources } from '../../src/core/mcp/config/own-server-sources';
import { OwnServers, type OwnSource, type ServerTrustAnswers, type TrustAnswer } from '../../src/core/mcp/config/own-servers';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { fake, waitForStatus } from './mcp-support';
import { scaled } from '../support/until';

const configsOf = (sources: readonly OwnSource[]) => sources.flatMap((s) => s.servers.flatMap((o) => (o.config ? [o.config] : [])));

test(
  "while the question about the workspace's servers is open, the person's own servers start; the workspace's once agreed to",
  { timeout: scaled(60_000) },
  async (t) => {
    const ws = mkdtempSync(join(tmpdir(), 'own-question-'));
    t.after(() => rmSync(ws, { recursive: true, force: true }));
    mkdirSync(join(ws, '.vscode'));
    const server = { command: process.execPath, args: [fake('mcp-echo')] };
    writeFileSync(join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { theirs: server } }));
    let answer: (a: TrustAnswer) => void = () => undefined;
    const asked: string[][] = [];
    const trust: ServerTrustAnswers = {
      answer: () => undefined,
      // The modal: open until the test answers it.
      ask: (_label, definitions) => {
        asked.push(definitions.map((d) => d.name));
        return new Promise((resolve) => (answer = resolve));
      },
    };
    const own = new OwnServers({
      trust,
      inputs: { ask: async () => undefined },
      disabled: { has: () => false },
      diagnostics: { publish: () => undefined },
      shellPath: async () => undefined,
    });
    const hub = new McpHub([], { connection: { closeGraceMs: 200 }, changeDebounceMs: 5 });
    hub.start();
    t.after(() => hub.dispose());

    const decided = own.decide(readOwnSources([ws], { mine: server }, process.env), true, { ready: (sources) => hub.update(configsOf(sources)) });
    const mine = await waitForStatus(hub, 'mine', (s) => s.state === 'ready');
    assert.equal(mine.state, 'ready', "the setting's server is up while the question is open");
    assert.deepEqual(asked, [['theirs']]);
    assert.equal(hub.status('theirs'), undefined, 'the workspace server waits for the answer');

    answer('trusted');
    await hub.update(configsOf(await decided));
    assert.equal((await waitForStatus(hub, 'theirs', (s) => s.state !== 'starting')).state, 'ready');
    assert.equal(hub.status('mine')?.pid, mine.pid, 'the own server was not restarted by the answer');
  },
);
