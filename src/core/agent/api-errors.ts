import Anthropic from '@anthropic-ai/sdk';

/** Turns an Anthropic SDK error into a sentence that says what happened and what to do. */
export function describeApiError(err: unknown, keyHint: string): string {
  if (err instanceof Anthropic.AuthenticationError) {
    return `The Anthropic API rejected the API key (401). ${keyHint}`;
  }
  if (err instanceof Anthropic.PermissionDeniedError) {
    return `The API key may not use this model or feature (403): ${apiMessage(err)}`;
  }
  if (err instanceof Anthropic.RateLimitError) {
    const retry = err.headers?.get('retry-after');
    return `Rate limited by the Anthropic API (429) after retrying${retry ? `; it asks to wait ${retry} s` : ''}. Try again in a moment.`;
  }
  if (err instanceof Anthropic.NotFoundError) {
    return `Not found (404): ${apiMessage(err)}. Check the model name and the API base URL settings.`;
  }
  if (err instanceof Anthropic.BadRequestError) {
    return `The Anthropic API refused the request (400): ${apiMessage(err)}`;
  }
  if (err instanceof Anthropic.APIConnectionTimeoutError) {
    return 'The Anthropic API did not answer in time. Check your connection and try again.';
  }
  if (err instanceof Anthropic.APIConnectionError) {
    return `Could not reach the Anthropic API (${err.message}). Check your connection or the API base URL setting.`;
  }
  if (err instanceof Anthropic.APIError) {
    if (err.status === 529) return 'The Anthropic API is overloaded (529) even after retrying. Try again shortly.';
    return `The Anthropic API failed (${err.status ?? 'no status'}): ${apiMessage(err)}`;
  }
  return err instanceof Error ? err.message : String(err);
}

function apiMessage(err: InstanceType<typeof Anthropic.APIError>): string {
  const body = err.error as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? err.message;
}
