import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Host names a loopback server answers to: anything else in Host is a DNS-rebinding attempt. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type Refusal = { status: 401 | 403; message: string; headers?: Record<string, string> } | undefined;

/**
 * Why a request to a loopback MCP server is refused, or undefined to let it through:
 * - Host must name loopback (a page on evil.example whose name was re-pointed at 127.0.0.1 sends
 *   `Host: evil.example`): 403;
 * - Origin, when a browser sends one, must be this server itself: 403 (a non-browser client sends none);
 * - with a token set, `Authorization: Bearer <token>`: 401 otherwise.
 * The SDK's hostHeaderValidation does the first for Express only and checks no Origin, so the three
 * checks are here, in one place, for node:http.
 */
export function refusal(req: IncomingMessage, port: number, token: string | undefined): Refusal {
  const host = req.headers.host;
  const hostname = host ? hostnameOf(host) : undefined;
  if (!hostname || !LOOPBACK_HOSTS.has(hostname)) {
    return { status: 403, message: `Forbidden: Host ${JSON.stringify(host ?? '')} is not this loopback server (DNS rebinding protection)` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !sameServer(origin, port)) {
    return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} may not use this server` };
  }
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
    return {
      status: 401,
      message: 'Unauthorized: send Authorization: Bearer <the MCP_AGENT_HTTP_TOKEN the server was started with>',
      headers: { 'WWW-Authenticate': 'Bearer realm="mcp-agent"' },
    };
  }
  return undefined;
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

function sameServer(origin: string, port: number): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && Number(url.port || 80) === port;
  } catch {
    return false;
  }
}

/** Compared in constant time, so the token cannot be guessed a byte at a time from response times. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m?.[1]) return false;
  const given = Buffer.from(m[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
