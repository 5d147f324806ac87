import type { IncomingMessage } from 'node:http';

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * The JSON body of a request, read up to `maxBytes` (a larger declared or sent body is refused
 * without reading on). Undefined when the client went away or the server's request timeout cut the
 * body off: there is no one left to answer.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<JsonBody | undefined> {
  const tooLarge: JsonBody = { ok: false, status: 413, code: -32000, message: `Payload too large: a request body may be at most ${maxBytes} bytes` };
  if (Number(req.headers['content-length']) > maxBytes) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) return tooLarge;
      chunks.push(chunk);
    }
  } catch {
    return undefined;
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the body is not JSON' };
  }
}
