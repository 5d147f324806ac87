// The extension's per-server log sink (src/core/mcp/client/log-batcher.ts, which ServerLogs puts in front of each
// server's LogOutputChannel) fed by the real hub from a real server that floods its log: every line is
// accounted for, no turn of the event loop writes more than a batch, and the server stays answerable.
// Also: logging/setLevel set for one server leaves the others at theirs (each channel has its own level),
// and a flood past the host's log budget (src/core/mcp/log-flood.ts) is dropped, counted and said.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SinkLevel } from '../../src/core/mcp/client/client-handlers';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { LogBatcher, type LogWriter } from '../../src/core/mcp/client/log-batcher';
import { fakeConfig, textOf, withHub } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const LINES = 10_000;
const PER_TURN = 500;

/** What a channel would have shown: each line, and how many lines each flush (one turn) wrote. */
class Recorder {
  readonly lines: Array<{ server: string; level: SinkLevel; text: string }> = [];
  readonly batches: number[] = [];
  /** Per server: flood lines kept (stderr, messages) and lines the sink said it dropped; counted as written. */
  private readonly counts = new Map<string, { stderr: number; message: number; dropped: number }>();
  private waiters: Array<{ done: () => boolean; resolve: () => void }> = [];

  writer(server: string): () => LogWriter {
    return () => {
      this.batches.push(0);
      const write = (level: SinkLevel) => (text: string) => {
        this.lines.push({ server, level, text });
        this.batches[this.batches.length - 1]!++;
        this.count(server, text);
        this.waiters = this.waiters.filter((w) => (w.done() ? (w.resolve(), false) : true));
      };
      return { trace: write('trace'), debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
    };
  }

  until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ done, resolve }));
  }

  /** Flood lines kept plus the lines the sink said it dropped (which may have been either kind). */
  accounted(server: string): number {
    const c = this.counts.get(server);
    return c ? c.stderr + c.message + c.dropped : 0;
  }

  kept(server: string): { stderr: number; message: number } {
    const c = this.counts.get(server);
    return { stderr: c?.stderr ?? 0, message: c?.message ?? 0 };
  }

  /** Resolves once the server's log shows the last stderr line and the last message of a flood of `count`. */
  sawLast(server: string, count: number): Promise<void> {
    const last = (re: RegExp): boolean => this.lines.some((l) => l.server === server && re.test(l.text));
    return this.until(() => last(new RegExp(`stderr ${count - 1}$`)) && last(new RegExp(`message ${count - 1}$`)));
  }

  private count(server: string, text: string): void {
    const c = this.counts.get(server) ?? { stderr: 0, message: 0, dropped: 0 };
    this.counts.set(server, c);
    if (/^\[stderr\] stderr \d+$/.test(text)) c.stderr++;
    else if (/^\[(flood|burst)\] message \d+$/.test(text)) c.message++;
    else {
      const dropped = /^\((\d+) (?:log messages?|lines?) dropped/.exec(text);
      if (dropped) c.dropped += Number(dropped[1]);
    }
  }
}

/** `logBudget` undefined: the host's default (10,000 messages at once, which the 10,000-line floods fit). */
function batchedHub(
  configs: ServerConfig[],
  rec: Recorder,
  maxPendingChars: number | undefined,
  body: (hub: McpHub) => Promise<void>,
  logBudget?: { perSecond: number; burst: number },
): Promise<void> {
  const sinks: LogBatcher[] = [];
  const logging = {
    sink: (server: string) => {
      const sink = new LogBatcher(rec.writer(server), { perTurn: PER_TURN, maxPendingChars });
      sinks.push(sink);
      return sink;
    },
  };
  return withHub(configs, { connection: { handlers: { logging }, closeGraceMs: 200, logBudget }, changeDebounceMs: 5 }, async (hub) => {
    await hub.settled();
    try {
      await body(hub);
    } finally {
      for (const s of sinks) s.dispose();
    }
  });
}

describe('per-server logs under a flood', () => {
  test(
    `${LINES.toLocaleString('en')} stderr lines and as many messages: all accounted for, written a batch per turn, the server still answers`,
    T,
    async (t) => {
      const rec = new Recorder();
      const delay = monitorEventLoopDelay({ resolution: 10 });
      await batchedHub([fakeConfig('flood', 'mcp-log-flood')], rec, undefined, async (hub) => {
        await hub.setLogLevel('debug', 'flood');
        delay.enable();
        const flood = hub.callTool('flood__flood', { count: LINES });
        const ping = hub.callTool('flood__ping', {});
        assert.equal(textOf(await ping), 'pong', 'a call made during the flood is answered');
        assert.equal(textOf(await flood), `sent ${LINES}`);
        await rec.until(() => rec.accounted('flood') === 2 * LINES);
        assert.deepEqual(rec.kept('flood'), { stderr: LINES, message: LINES }, 'nothing dropped at the default bound');
        delay.disable();
        t.diagnostic(
          `${rec.batches.length} flushes, largest ${Math.max(...rec.batches)} lines; event loop delay max ${(delay.max / 1e6).toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms`,
        );
        assert.ok(Math.max(...rec.batches) <= PER_TURN + 1, `one flush wrote ${Math.max(...rec.batches)} lines`);
        const messages = rec.lines.filter((l) => /^\[flood\] message/.test(l.text));
        assert.deepEqual(
          messages.slice(0, 4).map((l) => l.level),
          ['debug', 'info', 'warn', 'error'],
          'levels kept',
        );
        assert.ok(
          rec.lines.some((l) => l.text === 'starting') && rec.lines.some((l) => /^ready: log-flood 1\.0\.0/.test(l.text)),
          'lifecycle lines are in the same log',
        );
      });
    },
  );

  test('a log that cannot keep up keeps a bounded number of lines and says how many it dropped', T, async () => {
    const rec = new Recorder();
    await batchedHub([fakeConfig('flood', 'mcp-log-flood')], rec, 16 * 1024, async (hub) => {
      await hub.setLogLevel('debug', 'flood');
      await hub.callTool('flood__flood', { count: LINES });
      await rec.until(() => rec.accounted('flood') === 2 * LINES);
      const kept = rec.kept('flood').stderr + rec.kept('flood').message;
      assert.ok(kept < 2 * LINES, `all ${kept} lines were kept: the flood never outran 16 KiB of pending lines`);
      assert.ok(rec.lines.some((l) => l.level === 'warn' && /lines dropped: the server logged faster/.test(l.text)));
    });
  });

  test("one server's level (its channel's) leaves the other servers at theirs, across a restart too", T, async () => {
    const rec = new Recorder();
    await batchedHub([fakeConfig('quiet', 'mcp-log-flood'), fakeConfig('loud', 'mcp-log-flood')], rec, undefined, async (hub) => {
      await hub.setLogLevel('debug');
      await hub.setLogLevel('error', 'quiet');
      await Promise.all([hub.callTool('quiet__flood', { count: 8 }), hub.callTool('loud__flood', { count: 8 })]);
      await Promise.all([rec.sawLast('quiet', 8), rec.sawLast('loud', 8)]);
      const messages = (server: string): string[] => rec.lines.filter((l) => l.server === server && /^\[flood\]/.test(l.text)).map((l) => l.text);
      assert.deepEqual(messages('quiet'), ['[flood] message 3', '[flood] message 7']);
      assert.equal(messages('loud').length, 8);
      await hub.restart('quiet');
      rec.lines.length = 0;
      await hub.callTool('quiet__flood', { count: 8 });
      await rec.sawLast('quiet', 8);
      assert.deepEqual(messages('quiet'), ['[flood] message 3', '[flood] message 7']);
    });
  });

  test('200,000 log notifications at once: a call behind them is answered, most are dropped before they are parsed, and the log says how many', T, async () => {
    const rec = new Recorder();
    const count = 200_000;
    // A slow rate, so what is kept does not depend on how fast this machine reads the flood.
    const budget = { perSecond: 10, burst: 2_000 };
    await batchedHub(
      [fakeConfig('flood', 'mcp-log-flood')],
      rec,
      undefined,
      async (hub) => {
        const burst = hub.callTool('flood__burst', { count });
        assert.equal(textOf(await hub.callTool('flood__ping', {})), 'pong', 'the call made behind the flood is answered');
        assert.equal(textOf(await burst), `sent ${count}`);
        // The count comes within a second of the drops (and at the latest when the server is closed).
        await rec.until(() => rec.accounted('flood') === count);
        const kept = rec.kept('flood').message;
        assert.ok(kept < count / 10, `${kept} of ${count} lines were kept: the budget did not hold`);
        assert.ok(
          rec.lines.some((l) => l.level === 'warn' && /^\(\d+ log messages dropped: the server sent more than 10 a second\)$/.test(l.text)),
          'the log says how many were dropped',
        );
      },
      budget,
    );
  });
});
