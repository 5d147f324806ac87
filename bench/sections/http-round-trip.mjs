// 7. A tool call over HTTP vs the same server over stdio, both through our McpConnection, with the SDK's
// own Client over streamable HTTP as the reference for what our HTTP carrier adds.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ECHO_SERVER, ROOT, serverBundle } from '../lib/setup.mjs';
import { fmtRatio, fmtUs, percentile, ratio } from '../lib/stats.mjs';

const HTTP_FAKE = join(ROOT, 'out', 'test', 'fakes', 'mcp-http.js');

/** `node <args>` until it says where it listens (`ready` has the port in group 1). */
function listen(args, ready) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let said = '';
  return new Promise((resolve, reject) => {
    const check = (d) => {
      said += d.toString();
      const m = ready.exec(said);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}/mcp`, stop: () => child.kill('SIGTERM') });
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening: ${said}`)));
  });
}

async function ours(host, config) {
  const conn = new host.McpConnection(config, { callTimeoutMs: 120_000 });
  await conn.start();
  return { call: (tool, args) => conn.callTool(tool, args), close: () => conn.close() };
}

async function sdkHttp(url) {
  const client = new Client({ name: 'mcp-agent-bench', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { call: (tool, args) => client.callTool({ name: tool, arguments: args }), close: () => client.close() };
}

export async function benchHttpRoundTrip({ host, workspace, calls = 1000, warmup = 100, blocks = 5 }) {
  writeFileSync(join(workspace, 'small.txt'), 'a small file\n'.repeat(20));
  const wsHttp = await listen([serverBundle('workspace'), workspace, '--http', '0'], /at http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
  const echoHttp = await listen([HTTP_FAKE], /listening (\d+)/);
  const READ = ['read_file', { path: 'small.txt' }];
  const ECHO = ['echo', { text: 'hello from the bench' }];
  const subjects = [
    {
      key: 'wsStdio',
      label: 'workspace read_file, stdio',
      call: READ,
      open: () => ours(host, { name: 'ws', transport: 'stdio', command: process.execPath, args: [serverBundle('workspace'), workspace] }),
    },
    {
      key: 'wsHttp',
      label: 'workspace read_file, streamable HTTP',
      call: READ,
      base: 'wsStdio',
      open: () => ours(host, { name: 'ws', transport: 'http', url: wsHttp.url }),
    },
    {
      key: 'echoStdio',
      label: 'SDK echo server, stdio',
      call: ECHO,
      open: () => ours(host, { name: 'echo', transport: 'stdio', command: process.execPath, args: [ECHO_SERVER] }),
    },
    {
      key: 'echoHttp',
      label: 'SDK echo server, streamable HTTP',
      call: ECHO,
      base: 'echoStdio',
      open: () => ours(host, { name: 'echo', transport: 'http', url: echoHttp.url }),
    },
    { key: 'echoSdkHttp', label: 'SDK echo server, streamable HTTP, SDK Client', call: ECHO, base: 'echoStdio', open: () => sdkHttp(echoHttp.url) },
  ];
  const open = [];
  try {
    for (const s of subjects) open.push({ ...s, conn: await s.open(), us: [] });
    for (const s of open) for (let i = 0; i < warmup; i++) await s.conn.call(...s.call);
    // Blocks in turn, so a slow spell of the machine hits every subject alike.
    const perBlock = Math.ceil(calls / blocks);
    for (let b = 0; b < blocks; b++) {
      for (const s of open) {
        for (let i = 0; i < perBlock; i++) {
          const t0 = process.hrtime.bigint();
          await s.conn.call(...s.call);
          s.us.push(Number(process.hrtime.bigint() - t0) / 1000);
        }
      }
    }
  } finally {
    for (const s of open) await s.conn.close().catch(() => undefined);
    wsHttp.stop();
    echoHttp.stop();
  }
  const stats = Object.fromEntries(open.map((s) => [s.key, { label: s.label, calls: s.us.length, p50: percentile(s.us, 50), p99: percentile(s.us, 99) }]));
  const rows = open.map((s) => {
    const x = stats[s.key];
    return [x.label, fmtUs(x.p50), fmtUs(x.p99), s.base ? fmtRatio(ratio(x.p50, stats[s.base].p50)) : '-'];
  });
  return {
    title: `A tool call over HTTP vs stdio (${calls.toLocaleString('en')} sequential calls each after ${warmup} warm-up; ours: McpConnection)`,
    header: ['server, transport', 'p50', 'p99', 'p50 vs the same server over stdio'],
    rows,
    notes: [
      `ours over HTTP vs the SDK Client over HTTP, same server, p50: ${fmtRatio(ratio(stats.echoHttp.p50, stats.echoSdkHttp.p50))}`,
      "HTTP: one POST per call on a kept-alive connection, the answer as a short SSE stream (both servers are the SDK's streamable HTTP transport)",
    ],
    data: {
      calls,
      warmup,
      stats,
      httpVsStdioP50: ratio(stats.wsHttp.p50, stats.wsStdio.p50),
      oursVsSdkHttpP50: ratio(stats.echoHttp.p50, stats.echoSdkHttp.p50),
    },
  };
}
