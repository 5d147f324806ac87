import type { FetchLike } from '@modelcontextprotocol/client';

export interface PostStreamWatchOptions {
  /** How long after a stream ended its last events may still be on their way through the SDK's parser. */
  graceMs: number;
  /** The requests a stream carried, once it ended (cleanly or not) without any event id to resume from. */
  onUnanswered: (ids: Array<string | number>) => void;
}

/**
 * A fetch for the SDK's streamable HTTP transport that notices a POST's event stream ending before it
 * could have answered. The SDK resumes such a stream only when it carried an event id (Last-Event-ID);
 * otherwise it drops it silently and the request waits for its timeout (60 s and more). The stream is
 * passed through untouched; only its bytes are looked at, for an `id:` field.
 */
export function watchPostStreams(options: PostStreamWatchOptions, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (init?.method !== 'POST' || !response.body || !isEventStream(response)) return response;
    const ids = requestIds(init.body);
    if (ids.length === 0) return response;
    const body = watch(response.body, (resumable) => {
      if (!resumable) setTimeout(() => options.onUnanswered(ids), options.graceMs).unref();
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/** Ids of the requests in a POST body (one message or a batch). */
function requestIds(body: unknown): Array<string | number> {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.filter((m): m is { id: string | number; method: string } => !!m && typeof m === 'object' && 'method' in m && 'id' in m).map((m) => m.id);
  } catch {
    return [];
  }
}

/** The same bytes; `ended(resumable)` once they stop, unless the reader cancelled (the host closing). */
function watch(source: ReadableStream<Uint8Array>, ended: (resumable: boolean) => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let carry = '';
  let resumable = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          ended(resumable);
          return;
        }
        if (!resumable) {
          const text = carry + decoder.decode(value, { stream: true });
          resumable = /(^|[\r\n])id:/.test(text);
          carry = text.slice(-1);
        }
        controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        ended(resumable);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
