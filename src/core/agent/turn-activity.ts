import type Anthropic from '@anthropic-ai/sdk';
import type { Middleware } from '@anthropic-ai/sdk/core/middleware';
import type { TurnActivity } from '../../common/protocol';

/** The longest wait the SDK's own backoff takes between tries (its maxRetryDelay). */
const MAX_BACKOFF_MS = 8_000;
/** The longest wait one timer can hold: the SDK falls back to its backoff for anything else retry-after says. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A request middleware that reports each HTTP attempt of one model request, and the wait before the next
 * when the SDK is about to retry (its maxRetries, with retry-after or backoff): the silence after a
 * 529 becomes "The API is overloaded; retrying in 2 s (try 2 of 3)". It only watches: the SDK still decides
 * and does the retrying, and the wait said is the one it takes (for its jittered backoff, the most it takes).
 */
export function watchAttempts(maxRetries: number, signal: AbortSignal, report: (activity: TurnActivity) => void): Middleware {
  const attempts = maxRetries + 1;
  return async (request, next) => {
    const attempt = Number(request.headers.get('x-stainless-retry-count') ?? 0) + 1;
    report({ kind: 'request', attempt, attempts });
    let response: Response;
    try {
      response = await next(request);
    } catch (err) {
      if (attempt < attempts && !signal.aborted) report({ kind: 'retry', reason: 'connection', waitMs: backoffMs(attempt), attempt: attempt + 1, attempts });
      throw err;
    }
    if (attempt < attempts && willRetry(response)) {
      report({
        kind: 'retry',
        reason: reasonOf(response.status),
        status: response.status,
        waitMs: retryWaitMs(response.headers, attempt),
        attempt: attempt + 1,
        attempts,
      });
    }
    return response;
  };
}

/** What a content block starting to stream means for the person: the model thinks, or writes a call. */
export function blockActivity(block: Anthropic.RawContentBlockStartEvent['content_block'], toolName: (qualified: string) => string): TurnActivity | undefined {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return { kind: 'thinking' };
  if (block.type === 'tool_use') return { kind: 'tool_input', tool: toolName(block.name) };
  return undefined;
}

/** The SDK's rule (shouldRetry): the server's x-should-retry first, else 408, 409, 429 and 5xx. */
function willRetry(response: Response): boolean {
  if (response.ok) return false;
  const said = response.headers.get('x-should-retry');
  if (said === 'true') return true;
  if (said === 'false') return false;
  return response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500;
}

function reasonOf(status: number): Extract<TurnActivity, { kind: 'retry' }>['reason'] {
  if (status === 529) return 'overloaded';
  if (status === 429) return 'rate_limited';
  return 'server_error';
}

/** The SDK's wait (retryRequest): retry-after-ms, else retry-after in seconds or as a date, else its backoff. */
function retryWaitMs(headers: Headers, attempt: number): number {
  const ms = parseFloat(headers.get('retry-after-ms') ?? '');
  let wait = Number.isNaN(ms) ? undefined : ms;
  const after = headers.get('retry-after');
  if (after && !wait) {
    const seconds = parseFloat(after);
    wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return wait !== undefined && wait > 0 && wait <= MAX_TIMER_MS ? wait : backoffMs(attempt);
}

/** The SDK's backoff before try `attempt + 1`: 0.5 s doubling, at most 8 s, less up to a quarter of jitter. */
function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), MAX_BACKOFF_MS);
}
