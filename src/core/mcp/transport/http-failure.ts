import { OAuthClientFlowError, SdkHttpError, SseError, UnauthorizedError } from '@modelcontextprotocol/client';
import { metadataRefusal, OAuthProblem } from '../oauth/oauth-errors';
import { messageOf } from '../../../node/error-message';

/** What went wrong talking to an HTTP endpoint, in words, with the status when one came. */
export class HttpFailure extends Error {
  override name = 'HttpFailure';
  constructor(
    message: string,
    /** The HTTP status the server answered, when it answered. */
    readonly status: number | undefined,
    /** Nothing answered: refused, unknown host, reset, TLS failure. */
    readonly unreachable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running, on that port?',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'the host name could not be looked up (DNS)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate could not be verified',
};

/**
 * Names a failure of the SDK's HTTP transports the way a person can act on it: `what` is the step
 * ("POST", "GET of the event stream"), `shown` the URL without credentials.
 */
export function describeHttpFailure(err: unknown, what: string, shown: string, fetched?: URL): HttpFailure {
  if (err instanceof HttpFailure) return err;
  const failure = describe(err, what, shown);
  // The SDK and fetch quote the URL they were given, query values and all: shown as `shown` instead.
  if (!fetched || !failure.message.includes(fetched.href)) return failure;
  return new HttpFailure(failure.message.split(fetched.href).join(shown), failure.status, failure.unreachable, { cause: err });
}

function describe(err: unknown, what: string, shown: string): HttpFailure {
  if (err instanceof OAuthProblem) return new HttpFailure(err.message, 401, false, { cause: err });
  // The sign-in flow's own refusals (an authorization server that is not the one the metadata named, RFC 9207).
  if (err instanceof OAuthClientFlowError) return new HttpFailure(`signing in to ${shown} failed: ${err.message}`, 401, false, { cause: err });
  const refused = metadataRefusal(err, shown);
  if (refused) return new HttpFailure(refused.message, 401, false, { cause: err });
  if (err instanceof UnauthorizedError) {
    return new HttpFailure(
      `${shown} asks for authorization (HTTP 401), and signing in is not possible here: give a token in the server's "headers" (Authorization)`,
      401,
      false,
      { cause: err },
    );
  }
  const status = statusOf(err);
  if (status !== undefined && status > 0) {
    const body = bodyOf(err);
    const hint = status === 401 ? '; it asks for authorization: sign in (OAuth), or give a token in the server\'s "headers" (Authorization)' : '';
    return new HttpFailure(`${what} ${shown} answered HTTP ${status}${body ? `: ${body}` : ''}${hint}`, status, false, { cause: err });
  }
  const network = networkCode(err);
  if (network) {
    return new HttpFailure(`could not reach ${shown}: ${NETWORK_CODES[network] ?? network}`, undefined, true, { cause: err });
  }
  return new HttpFailure(`${what} ${shown} failed: ${messageOf(err)}`, undefined, false, { cause: err });
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof SdkHttpError) return err.status;
  if (err instanceof SseError) return typeof err.code === 'number' ? err.code : undefined;
  // The SSE transport's POST failures are plain errors: "Error POSTing to endpoint (HTTP 404): ...".
  const m = /\(HTTP (\d{3})\)/.exec(messageOf(err));
  return m ? Number(m[1]) : undefined;
}

/** The start of the server's own words, when it sent some. */
function bodyOf(err: unknown): string {
  const m = /(?:Error POSTing to endpoint(?: \(HTTP \d+\))?|Failed to open SSE stream|Non-200 status code \(\d+\)):?\s*([^]*)$/.exec(messageOf(err));
  const said = err instanceof SdkHttpError && typeof err.data.text === 'string' ? err.data.text : (m?.[1] ?? '');
  const text = rpcMessage(said.trim()).replace(/\s+/g, ' ').trim();
  if (!text || text === 'null') return '';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The errno-like code under a fetch failure ("fetch failed" with a cause chain). */
function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  // fetch's own refusals (a port it never connects to) have no code, only the cause's words.
  if (!/fetch failed/.test(messageOf(err))) return undefined;
  let deepest: unknown = err;
  for (let depth = 0; (deepest as { cause?: unknown }).cause && depth < 5; depth++) deepest = (deepest as { cause?: unknown }).cause;
  return deepest === err ? 'the request failed' : messageOf(deepest);
}

/** A JSON-RPC error body (what MCP servers send with a 4xx) says it best in its `error.message`. */
function rpcMessage(text: string): string {
  if (!text.startsWith('{')) return text;
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' && message ? message : text;
  } catch {
    return text;
  }
}
