// src/core/mcp/era/era-choice.ts: which era a session opens in, what is asked again, and what is remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { openInEra, type EraOpener } from '../../src/core/mcp/era/era-choice';
import { eraKey, MemoryEras, type ProtocolEra } from '../../src/core/mcp/era/era-memory';
import { McpStartError } from '../../src/core/mcp/session/errors';
import type { ServerConfig } from '../../src/core/mcp/types';

const stdio: ServerConfig = { name: 's', transport: 'stdio', command: 'node', args: ['s.js'] };
const http: ServerConfig = { name: 'h', transport: 'http', url: 'http://127.0.0.1:1/mcp' };
const discover = { supportedVersions: ['2026-07-28'], capabilities: {}, serverInfo: { name: 's', version: '1' } } as unknown as DiscoverResult;

/** An opener that answers each open with the next scripted outcome and records what it was asked. */
function scripted(outcomes: Array<ProtocolEra | 'nothing' | 'exited' | Error>): EraOpener & { calls: string[] } {
  const calls: string[] = [];
  let era: ProtocolEra | undefined;
  let nothing = false;
  let exited = false;
  return {
    calls,
    open(prior: PriorDiscovery | undefined) {
      calls.push(`open ${prior?.kind ?? 'asked'}`);
      const next = outcomes.shift();
      exited = next === 'exited' && !prior;
      if (next === 'exited') return Promise.reject(new McpStartError('exited', 'server exited (code 1)'));
      if (next instanceof Error) return Promise.reject(next);
      nothing = next === 'nothing';
      era = next === 'nothing' ? prior?.kind : next;
      return Promise.resolve();
    },
    answeredNothing: () => nothing,
    reopen() {
      calls.push('reopen');
      return Promise.resolve();
    },
    opened: () => ({ era, discover: era === 'modern' ? discover : undefined }),
    exitedWhenAsked: () => exited,
    log: () => undefined,
  };
}

test('a server never seen is asked, and its answer remembered with its discover result', async () => {
  const eras = new MemoryEras();
  const opener = scripted(['modern']);
  await openInEra(stdio, eras, opener);
  assert.deepEqual(opener.calls, ['open asked']);
  assert.equal(eras.recall(eraKey(stdio))?.era, 'modern');
  assert.equal(eras.recall(eraKey(stdio))?.discover, discover);
});

test('a known server opens in its era at once; a config that says 2025-11-25 is never asked', async () => {
  const eras = new MemoryEras();
  eras.remember(eraKey(stdio), { era: 'modern', discover, at: Date.now() });
  const known = scripted(['modern']);
  await openInEra(stdio, eras, known);
  assert.deepEqual(known.calls, ['open modern']);
  const pinned = scripted(['legacy']);
  await openInEra({ ...stdio, args: ['other.js'], era: 'legacy' }, eras, pinned);
  assert.deepEqual(pinned.calls, ['open legacy']);
});

test('a remembered era the server no longer answers in is forgotten and asked again', async () => {
  const eras = new MemoryEras();
  eras.remember(eraKey(stdio), { era: 'modern', discover, at: Date.now() });
  const opener = scripted(['nothing', 'legacy']);
  await openInEra(stdio, eras, opener);
  assert.deepEqual(opener.calls, ['open modern', 'reopen', 'open asked']);
  assert.equal(eras.recall(eraKey(stdio))?.era, 'legacy');
});

test('a stdio server that exits when asked is started again in 2025-11-25 and remembered so; over HTTP the failure stands', async () => {
  const eras = new MemoryEras();
  const opener = scripted(['exited', 'legacy']);
  await openInEra(stdio, eras, opener);
  assert.deepEqual(opener.calls, ['open asked', 'reopen', 'open legacy']);
  assert.equal(eras.recall(eraKey(stdio))?.era, 'legacy');
  const remote = scripted(['exited']);
  await assert.rejects(openInEra(http, eras, remote), /exited/);
  assert.deepEqual(remote.calls, ['open asked']);
  assert.equal(eras.recall(eraKey(http)), undefined);
});

test('any other failure is the start’s failure, and nothing is remembered', async () => {
  const eras = new MemoryEras();
  const opener = scripted([new McpStartError('timeout', 'no answer in 15 s')]);
  await assert.rejects(openInEra(stdio, eras, opener), /no answer in 15 s/);
  assert.deepEqual(opener.calls, ['open asked']);
  assert.equal(eras.recall(eraKey(stdio)), undefined);
});
