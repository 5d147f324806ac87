import type { APIError } from '@anthropic-ai/sdk/core/error';
import { modelSdk } from './model-client';
import type { TurnAction } from '../../common/protocol';
import { messageOf } from '../../node/error-message';

/** Turns an Anthropic SDK error into a sentence that says what happened and what to do. */
export function describeApiError(err: unknown, keyHint: string): string {
  const { ApiError } = modelSdk();
  if (err instanceof ApiError.AuthenticationError) {
    return `The Anthropic API rejected the API key (401). ${keyHint}`;
  }
  if (err instanceof ApiError.PermissionDeniedError) {
    return `The API key may not use this model or feature (403): ${apiMessage(err)}`;
  }
  if (err instanceof ApiError.RateLimitError) {
    const retry = err.headers?.get('retry-after');
    return `Rate limited by the Anthropic API (429) after retrying${retry ? `; it asks to wait ${retry} s` : ''}. Try again in a moment.`;
  }
  if (err instanceof ApiError.NotFoundError) {
    return `Not found (404): ${apiMessage(err)}. Check the model name and the API base URL settings.`;
  }
  if (err instanceof ApiError.BadRequestError) {
    return `The Anthropic API refused the request (400): ${apiMessage(err)}`;
  }
  if (err instanceof ApiError.APIConnectionTimeoutError) {
    return 'The Anthropic API did not answer in time. Check your connection and try again.';
  }
  if (err instanceof ApiError.APIConnectionError) {
    return `Could not reach the Anthropic API (${err.message}). Check your connection or the API base URL setting.`;
  }
  if (err instanceof ApiError.APIError) {
    if (err.status === 529) return 'The Anthropic API is overloaded (529) even after retrying. Try again shortly.';
    return `The Anthropic API failed (${err.status ?? 'no status'}): ${apiMessage(err)}`;
  }
  return messageOf(err);
}

function apiMessage(err: APIError): string {
  const body = err.error as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? err.message;
}

/** The most a Retry countdown waits, whatever retry-after says (a day-long value is not a countdown). */
const MAX_WAIT_S = 600;

/**
 * What the person can do about a failed request: set the key (401), or retry what is worth
 * retrying (429, 529, 5xx, a dropped or timed-out connection) after the wait the API asked for.
 */
export function errorAction(err: unknown): { action?: TurnAction; retryAfterS?: number } {
  const { ApiError } = modelSdk();
  if (err instanceof ApiError.AuthenticationError) return { action: 'setKey' };
  if (err instanceof ApiError.APIConnectionError) return { action: 'retry' };
  if (!(err instanceof ApiError.APIError)) return {};
  const status = err.status ?? 0;
  if (status !== 429 && status !== 529 && status < 500) return {};
  const wait = retryAfterSeconds(err.headers);
  return wait === undefined ? { action: 'retry' } : { action: 'retry', retryAfterS: wait };
}

/** retry-after-ms (Anthropic's), else retry-after in seconds or as an HTTP date. */
function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.min(MAX_WAIT_S, Math.ceil(ms / 1000));
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds > 0 ? Math.min(MAX_WAIT_S, Math.ceil(seconds)) : undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  const left = Math.ceil((at - Date.now()) / 1000);
  return left > 0 ? Math.min(MAX_WAIT_S, left) : undefined;
}

/** The API's 400 for a request with its tool search tool where it has none (a proxy, a model without it). */
export function refusedToolSearch(err: unknown): boolean {
  return err instanceof modelSdk().ApiError.BadRequestError && /tool_search|defer_loading|tool_reference/i.test(err.message);
}

/** The API's 400 for a request over the model's input window. */
export function promptTooLong(err: unknown): boolean {
  return err instanceof modelSdk().ApiError.BadRequestError && /prompt is too long|input length .* exceed|context window/i.test(err.message);
}
