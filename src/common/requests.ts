/**
 * Requests the chat page makes of the host, each with its typed answer: one map (method -> params and
 * result schemas) and one correlator, after Continue's core/protocol. The host checks a request's params
 * against its method's schema before any handler sees them (the page is untrusted); the page checks the
 * result before it uses it. Fire-and-forget messages stay in protocol.ts.
 */
import * as z from 'zod';
import { pastedImageSchema } from './image-types';

/** What the `/` list offers for the text typed so far: a command, a server/prompt name or a resource URI. */
const slashItemSchema = z.object({
  label: z.string().max(500),
  detail: z.string().max(500).optional(),
  /** The composer's whole text once this item is picked. */
  insert: z.string().max(5000),
  /** Complete as it is: Enter runs it at once (Tab only fills it in). */
  runs: z.boolean(),
});
export type SlashItem = z.infer<typeof slashItemSchema>;
/** Something `@` can attach: a file, a folder, the editor's selection, or the Problems list. */
const mentionSchema = z.object({
  kind: z.enum(['file', 'folder', 'selection', 'problems']),
  label: z.string().max(300),
  detail: z.string().max(300).optional(),
  /** What is attached: a workspace-relative path (with #Lx-y for a selection), or `@problems`. */
  ref: z.string().max(4200),
  /** Why it cannot be attached (binary, too big): shown instead of a chip. */
  refused: z.string().max(300).optional(),
});
export type Mention = z.infer<typeof mentionSchema>;
/** Whether the chat went back to a message; `why` not, when it could not (none: the person thought better of it). */
const goneBackSchema = z.object({ done: z.boolean(), why: z.string().max(2000).optional() });
export type GoneBack = z.infer<typeof goneBackSchema>;
const eventId = z.string().min(1).max(200);
/** The person's message: its text, `@` references (workspace-relative; the host re-checks each) and pasted images (5 at most, the API's limit). */
const outgoingSchema = z.object({
  text: z.string().min(1).max(200_000),
  attachments: z.array(z.string().max(4096)).max(50).default([]),
  images: z.array(pastedImageSchema).max(5).default([]),
});
export type Outgoing = z.infer<typeof outgoingSchema>;
/** Whether a message is in the chat; `why` not, when the host refused it (a turn still runs): the page keeps it then. */
const sentSchema = z.object({ sent: z.boolean(), why: z.string().max(2000).optional() });
export type Sent = z.infer<typeof sentSchema>;

export const requestSchemas = {
  /** The person's message as the next turn: answered once it is in the chat (its turn started), or refused. */
  send: { params: outgoingSchema, result: sentSchema },
  /** What `@query` could attach. */
  completeMentions: { params: z.object({ query: z.string().max(200) }), result: z.array(mentionSchema).max(100) },
  /** What the `/` list could offer for the text typed so far. */
  completeSlash: { params: z.object({ text: z.string().max(2000) }), result: z.array(slashItemSchema).max(100) },
  /** Edit and resend: the chat goes back to before the person's message `id` and sends `text` in its place. */
  editMessage: { params: z.object({ id: eventId, text: z.string().min(1).max(200_000) }), result: goneBackSchema },
  /** Regenerate: the chat goes back to just after the person's message `id` and asks for its answer again. */
  regenerate: { params: z.object({ id: eventId }), result: goneBackSchema },
} as const;

export type RequestMethod = keyof typeof requestSchemas;
export type RequestParams<M extends RequestMethod> = z.infer<(typeof requestSchemas)[M]['params']>;
export type RequestResult<M extends RequestMethod> = z.infer<(typeof requestSchemas)[M]['result']>;

const methods = Object.keys(requestSchemas) as [RequestMethod, ...RequestMethod[]];
const requestId = z.number().int().nonnegative();

/** Page -> host. `params` is checked per method by parseParams(). */
export const requestMessageSchema = z.object({ type: z.literal('request'), id: requestId, method: z.enum(methods), params: z.unknown() });
export type RequestMessage = z.infer<typeof requestMessageSchema>;

/** Host -> page: a result, or why there is none. */
export const responseMessageSchema = z.object({
  type: z.literal('response'),
  id: requestId,
  result: z.unknown().optional(),
  error: z.string().max(2000).optional(),
});
export type ResponseMessage = z.infer<typeof responseMessageSchema>;

/** The handlers the host has for every method: a missing one is a type error, not a silent drop. */
export type RequestHandlers = { [M in RequestMethod]: (params: RequestParams<M>) => Promise<RequestResult<M>> | RequestResult<M> };

/** The host's answer to one request: the handler's result, or an error saying why (bad params, a handler that threw). */
export async function answer(message: RequestMessage, handlers: RequestHandlers): Promise<ResponseMessage> {
  const parsed = requestSchemas[message.method].params.safeParse(message.params);
  if (!parsed.success)
    return { type: 'response', id: message.id, error: `invalid ${message.method} params: ${parsed.error.issues[0]?.message ?? 'bad shape'}` };
  try {
    const handler = handlers[message.method] as (params: unknown) => unknown;
    return { type: 'response', id: message.id, result: await handler(parsed.data) };
  } catch (err) {
    return { type: 'response', id: message.id, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The page's side: numbers requests, and settles each with its checked result when the answer comes. */
export class Correlator {
  private next = 0;
  private readonly pending = new Map<number, { method: RequestMethod; resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly send: (message: RequestMessage) => void) {}

  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const id = this.next++;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      this.send({ type: 'request', id, method, params });
    });
  }

  /** An answer arrived; one for no request waiting (a page reloaded since) is dropped. */
  settle(response: ResponseMessage): void {
    const waiting = this.pending.get(response.id);
    if (!waiting) return;
    this.pending.delete(response.id);
    if (response.error !== undefined) return waiting.reject(new Error(response.error));
    const result = requestSchemas[waiting.method].result.safeParse(response.result);
    if (result.success) waiting.resolve(result.data);
    else waiting.reject(new Error(`invalid ${waiting.method} result: ${result.error.issues[0]?.message ?? 'bad shape'}`));
  }
}
