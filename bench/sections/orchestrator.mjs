// The orchestrator: start to ready, a sub-agent turn against the local fake Messages API (and what
// it adds over the model call itself), and the memory an idle session costs.
import Anthropic from '@anthropic-ai/sdk';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { LineClient } from '../lib/line-client.mjs';
import { ROOT, serverBundle } from '../lib/setup.mjs';
import { fmtBytes, fmtMs, median } from '../lib/stats.mjs';

const FAKE_API = join(ROOT, 'out', 'test', 'fakes', 'anthropic-api.js');

/** The fake Messages API as its own process; with an empty script every reply is one short text. */
async function startFakeApi() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fake-api-'));
  const script = join(dir, 'script.json');
  writeFileSync(script, '[]');
  const child = spawn(process.execPath, [FAKE_API, script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  return { url: String(line).replace(/^listening /, ''), close: () => (child.kill(), rmSync(dir, { recursive: true, force: true })) };
}

/** How many processes `pid` started and their RSS in all (Linux /proc). */
function childrenRss(pid) {
  let count = 0;
  let bytes = 0;
  for (const dir of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${dir}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${dir}/status`, 'utf8'));
      count += 1;
      bytes += kb ? Number(kb[1]) * 1024 : 0;
    } catch {
      // gone meanwhile
    }
  }
  return { count, bytes };
}

async function call(client, name, args) {
  const r = await client.request('tools/call', { name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
  return r;
}

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchOrchestrator({ workspace, starts = 10, sessions = 20 }) {
  const api = await startFakeApi();
  const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: api.url };
  const script = serverBundle('orchestrator');
  try {
    const ready = [];
    const rss = [];
    for (let i = 0; i <= starts; i++) {
      const t0 = performance.now();
      const client = LineClient.spawn(process.execPath, [script, workspace], { env });
      await client.initialize(LATEST_PROTOCOL_VERSION);
      await client.request('tools/list', {});
      if (i > 0) {
        // the first start warms the disk cache
        ready.push(performance.now() - t0);
        rss.push(client.rssBytes());
      }
      await client.close();
    }

    const client = LineClient.spawn(process.execPath, [script, workspace], { env });
    await client.initialize(LATEST_PROTOCOL_VERSION);
    const idleRss = client.rssBytes();
    const firstTurn = await timed(() => call(client, 'start_agent', { session_name: 'bench-0', prompt: 'hello' }));
    const afterFirst = client.rssBytes();
    const subServers = childrenRss(client.child.pid);
    const turns = [];
    for (let i = 1; i <= sessions; i++) turns.push(await timed(() => call(client, 'start_agent', { session_name: `bench-${i}`, prompt: 'hello' })));
    const afterAll = client.rssBytes();
    const resumes = [];
    for (let i = 1; i <= sessions; i++) resumes.push(await timed(() => call(client, 'resume_agent', { session_name: `bench-${i}`, prompt: 'again' })));
    const queries = [];
    for (let i = 0; i < sessions; i++) queries.push(await timed(() => call(client, 'query', { prompt: 'hello' })));
    await client.close();

    // The model call alone, from this process with the same SDK: what a turn in the chat costs at least.
    const anthropic = new Anthropic({ apiKey: 'sk-bench', baseURL: api.url });
    const direct = [];
    for (let i = 0; i <= sessions; i++) {
      const ms = await timed(async () => {
        const stream = await anthropic.messages.create({
          model: 'claude-sonnet-5-5',
          max_tokens: 100,
          stream: true,
          messages: [{ role: 'user', content: 'hello' }],
        });
        for await (const _ of stream) void _;
      });
      if (i > 0) direct.push(ms);
    }
    const perSession = (afterAll - afterFirst) / sessions;
    return {
      title: `Orchestrator (median of ${starts} starts; ${sessions} one-reply sessions against the local fake Messages API)`,
      header: ['what', 'value'],
      rows: [
        ['start → tools/list answered', fmtMs(median(ready))],
        ['RSS when ready (no sub-server yet)', fmtBytes(median(rss))],
        ['first start_agent (starts workspace, web, research)', fmtMs(firstTurn)],
        [`sub-servers started for it (${subServers.count} processes, RSS)`, fmtBytes(subServers.bytes)],
        ['start_agent, one reply, servers running', fmtMs(median(turns))],
        ['resume_agent, one reply', fmtMs(median(resumes))],
        ['query, one reply', fmtMs(median(queries))],
        ['the model call alone (SDK from the bench process)', fmtMs(median(direct))],
        ['turn overhead over the model call (resume_agent − model call)', fmtMs(median(resumes) - median(direct))],
        [`RSS growth per idle session (${sessions} sessions)`, fmtBytes(Math.max(0, perSession))],
        ['orchestrator RSS: idle / after first turn / after all', `${fmtBytes(idleRss)} / ${fmtBytes(afterFirst)} / ${fmtBytes(afterAll)}`],
      ],
      notes: [
        'a session idle on disk holds no memory in the orchestrator beyond its "always" approvals; RSS growth is mostly the heap settling',
        'the turn overhead covers the MCP request, loading the history from disk, the agent loop and the atomic session.json writes',
      ],
      data: { readyMs: ready, rss, firstTurn, subServers, turns, resumes, queries, direct, idleRss, afterFirst, afterAll },
    };
  } finally {
    api.close();
  }
}
