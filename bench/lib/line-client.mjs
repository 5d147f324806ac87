// A bare newline-delimited JSON-RPC client over a child's stdio: the "raw pipe" reference, and the
// probe used to time server starts without any MCP client library in the way.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

export class LineClient {
  /** @param {import('node:child_process').ChildProcess} child */
  constructor(child) {
    this.child = child;
    this.nextId = 1;
    this.pending = new Map();
    this.parts = [];
    this.size = 0;
    this.exited = once(child, 'exit');
    child.stderr?.resume();
    child.stdout.on('data', (chunk) => this.onData(chunk));
    child.once('exit', (code, signal) => {
      for (const { reject } of this.pending.values()) reject(new Error(`child exited (${code ?? signal})`));
      this.pending.clear();
    });
  }

  static spawn(command, args, options = {}) {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
    return new LineClient(child);
  }

  // Chunks of a line are kept in a list and joined once at its newline: linear in the message size.
  onData(chunk) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        if (start < chunk.length) {
          this.parts.push(chunk.subarray(start));
          this.size += chunk.length - start;
        }
        return;
      }
      this.parts.push(chunk.subarray(start, nl));
      this.size += nl - start;
      const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
      this.parts = [];
      this.size = 0;
      start = nl + 1;
      if (line.length > 0) this.onLine(line);
    }
  }

  onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line.toString('utf8'));
    } catch {
      return; // not JSON (a chatty server): ignored, as a host would
    }
    if (msg.id === undefined || msg.method !== undefined) {
      // A request from the server (roots/list, ...): answer "method not found" so it does not wait.
      if (msg.id !== undefined) this.write({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not supported' } });
      return;
    }
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id);
    if (msg.error) waiter.reject(new Error(msg.error.message));
    else waiter.resolve(msg.result);
  }

  write(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(method, params) {
    const id = this.nextId++;
    // In 2026-07-28 every request carries the era's envelope: there is no session to remember it.
    if (this.envelope) params = { ...params, _meta: { ...this.envelope, ...params?._meta } };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** The MCP handshake: initialize, notifications/initialized. */
  async initialize(protocolVersion) {
    const result = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'mcp-agent-bench', version: '0' },
    });
    this.notify('notifications/initialized');
    return result;
  }

  /**
   * The 2026-07-28 opening: server/discover (no initialize, no notification), then every request carries the
   * `_meta` envelope, as @modelcontextprotocol/client 2.x sends them.
   */
  async discover(protocolVersion = '2026-07-28') {
    this.envelope = {
      'io.modelcontextprotocol/protocolVersion': protocolVersion,
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-agent-bench', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    return this.request('server/discover', {});
  }

  /** Resident set size of the child now, in bytes (Linux /proc). */
  rssBytes() {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : NaN;
  }

  /** stdin EOF, then SIGTERM, then SIGKILL; resolves once the child is gone. */
  async close(graceMs = 2000) {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const wait = (ms) => Promise.race([this.exited, new Promise((r) => setTimeout(r, ms).unref())]);
    await wait(graceMs);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await wait(graceMs);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await this.exited;
  }
}
