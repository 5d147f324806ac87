import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * A drop-in replacement for the SDK's stdio `ReadBuffer` (append / readMessage / clear) that costs
 * linear time and never takes the session down.
 *
 * Why: SDK 1.32's ReadBuffer does `Buffer.concat(buffer, chunk)` for every 64 KiB chunk and then
 * scans the whole buffer for '\n' again, so a large message costs O(n²) (bench/README.md has the
 * times). Past its 10 MiB cap the SDK's buffer throws from `append`, and the transport closes the whole connection.
 * Here a line's chunks are kept in a list and joined once when its newline arrives (each byte is
 * scanned once and copied once). A line over `maxMessageBytes` is not kept: only its head and tail
 * survive, and when it ends the request it answered is failed at once with a clear error
 * (its id is read from the tail or head), so the caller never waits for a timeout.
 */
export interface LinearReadBufferOptions {
  /** The largest single message kept, in bytes. */
  maxMessageBytes?: number;
  /** True for a whole line to skip before it is decoded (a log flood past its budget, log-flood.ts). */
  skip?: (line: Buffer) => boolean;
}

const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** JSON-RPC "internal error": the request did reach the server, its answer could not be taken. */
const OVERSIZED_ERROR_CODE = -32603;
const KEEP = 256;

interface Oversized {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

type Line = Buffer | Oversized;

export class LinearReadBuffer {
  private readonly max: number;
  private readonly skip: ((line: Buffer) => boolean) | undefined;
  private parts: Buffer[] = [];
  private size = 0;
  private oversized: Oversized | undefined;
  private lines: Line[] = [];

  constructor(options: LinearReadBufferOptions = {}) {
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.skip = options.skip;
  }

  append(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        if (start < chunk.length) this.push(chunk.subarray(start));
        return;
      }
      if (nl > start) this.push(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
  }

  /**
   * The next message, or null when no complete line is buffered. Throws for a line that is not a
   * JSON-RPC message (a server printing text to stdout); the transport reports that through
   * `onerror` and keeps reading, so the line is skipped and the session goes on.
   */
  readMessage(): JSONRPCMessage | null {
    for (;;) {
      const line = this.lines.shift();
      if (line === undefined) return null;
      if (!Buffer.isBuffer(line)) return oversizedReply(line, this.max);
      if (this.skip?.(line)) continue;
      const text = line.toString('utf8').replace(/\r$/, '');
      if (text.trim() === '') continue;
      return parseLine(text);
    }
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
    this.oversized = undefined;
    this.lines = [];
  }

  private push(part: Buffer): void {
    if (this.oversized) {
      this.oversized.bytes += part.length;
      this.oversized.tail = lastBytes(Buffer.concat([this.oversized.tail, lastBytes(part, KEEP)]), KEEP);
      return;
    }
    if (this.size + part.length <= this.max) {
      this.parts.push(part);
      this.size += part.length;
      return;
    }
    const all = Buffer.concat([...this.parts, part]);
    this.oversized = { head: Buffer.from(all.subarray(0, KEEP)), tail: Buffer.from(lastBytes(all, KEEP)), bytes: all.length };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.oversized) {
      this.lines.push(this.oversized);
      this.oversized = undefined;
      return;
    }
    this.lines.push(this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.size));
    this.parts = [];
    this.size = 0;
  }
}

function lastBytes(b: Buffer, n: number): Buffer {
  return b.length <= n ? b : b.subarray(b.length - n);
}

function parseLine(text: string): JSONRPCMessage {
  try {
    return jsonRpc(JSON.parse(text));
  } catch (err) {
    // A server that prints a log prefix without a newline ("hello{"jsonrpc":...}"): take the JSON.
    const at = text.indexOf('{"jsonrpc"');
    if (at > 0) return jsonRpc(JSON.parse(text.slice(at)));
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw new Error(`ignored a stdout line that is not JSON-RPC: ${JSON.stringify(shown)}`, { cause: err });
  }
}

/**
 * An object that says it is JSON-RPC 2.0. Its shape is the SDK's to check: its Protocol tests every message
 * against the request, notification and response schemas and reports one of no known shape ("Unknown message
 * type"), as the SDK's own transport does after parsing the whole JSON-RPC union once already. That first union
 * parse was a tool call's largest allocation here, for nothing the SDK does not redo; the layers before the SDK (log-flood.ts, progress-tokens.ts, server-error.ts) read plain fields only.
 */
function jsonRpc(value: unknown): JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    throw new Error('not a JSON-RPC 2.0 object');
  }
  return value as JSONRPCMessage;
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);

function oversizedReply(line: Oversized, max: number): JSONRPCMessage {
  const match = ID_AT_END.exec(line.tail.toString('utf8')) ?? ID_AT_START.exec(line.head.toString('utf8'));
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const message = `the server's message was ${mb(line.bytes)}, over the host's limit of ${mb(max)}; it was dropped. Ask for less (a page, a range or a smaller limit).`;
  if (!match?.[1]) throw new Error(`dropped a message without an id: ${message}`);
  const id = JSON.parse(match[1]) as string | number;
  return { jsonrpc: '2.0', id, error: { code: OVERSIZED_ERROR_CODE, message } };
}
