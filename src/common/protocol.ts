/**
 * The one protocol between the chat webview and the extension host. Both sides import this file;
 * each validates what arrives with these schemas (messages from the webview are untrusted).
 *
 * The chat is a list of ChatEvents. The host persists them (append-only JSONL) and posts them as
 * they happen; a reload replays the same list, so live and restored chats render the same way.
 * Streaming text deltas are posted but not persisted: the final `assistant_text` replaces them.
 */
import * as z from 'zod';
import { fieldValueSchema, formFieldSchema } from './form-field';
import { requestMessageSchema, responseMessageSchema } from './requests';
import { imageDataSchema, imageMimeSchema } from './image-types';

const id = z.string().min(1).max(200);

const toolContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string().max(100), data: z.string() }),
]);
export type ToolContent = z.infer<typeof toolContentSchema>;

const approvalDecisionSchema = z.enum(['once', 'always', 'deny']);
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/**
 * Which "always" an approval card offers: for this tool in this workspace, for running code (a
 * separate, confirmed choice: code can change any file), or none (files that always ask).
 */
const alwaysKindSchema = z.enum(['tool', 'code', 'host', 'none']);
export type AlwaysKind = z.infer<typeof alwaysKindSchema>;

/** Retry the failed request, set the API key, or go on after the iteration cap. */
const turnActionSchema = z.enum(['retry', 'setKey', 'continue']);
export type TurnAction = z.infer<typeof turnActionSchema>;

const tokens = z.number().int().nonnegative();

/** What a turn's model calls used; the cost only where the model's price is known. */
const turnUsageSchema = z.object({
  model: z.string().max(200),
  input: tokens,
  output: tokens,
  cacheRead: tokens,
  cacheWrite: tokens,
  costUsd: z.number().nonnegative().optional(),
});
export type TurnUsage = z.infer<typeof turnUsageSchema>;

/** A file a turn changed that its checkpoint does not hold: over the size a file may have, or past what one snapshot copies. */
const notCoveredSchema = z.object({
  path: z.string().max(4096),
  bytes: z.number().int().nonnegative(),
  reason: z.enum(['size', 'total']),
  /** The turn deleted it. */
  deleted: z.boolean().optional(),
});
export type NotCoveredFile = z.infer<typeof notCoveredSchema>;

export const chatEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    id,
    text: z.string(),
    attachments: z.array(z.string()).default([]),
    at: z.number(),
    /** The message was an MCP prompt: which one, and its messages as sent (roles kept), for the chat to show. */
    prompt: z
      .object({
        server: z.string().max(200),
        name: z.string().max(200),
        messages: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(20_000) })).max(200),
      })
      .optional(),
    /**
     * Where the message sits in the conversation the model sees (message-spans.ts): its messages are [from, to),
     * so an edit goes back to `from` and a regenerate to `to`. No `from` once a compaction summarised what was
     * before it; absent in chats saved before messages could be edited, and for a message no turn ran for.
     */
    span: z.object({ from: z.number().int().nonnegative().optional(), to: z.number().int().positive() }).optional(),
    /** Sent by the view of this server's MCP App (ui/message), not typed by the person: never taken for theirs. */
    app: z.string().max(200).optional(),
  }),
  z.object({ kind: z.literal('assistant_text'), turnId: id, blockId: id, text: z.string() }),
  /** The model's thinking before a reply (shown collapsed). */
  z.object({ kind: z.literal('thinking'), turnId: id, blockId: id, text: z.string() }),
  z.object({
    kind: z.literal('tool_call'),
    turnId: id,
    callId: id,
    server: z.string(),
    tool: z.string(),
    input: z.unknown(),
    /** The tool has a view (MCP Apps): the `ui://` resource its result is drawn in, under the card. */
    app: z.object({ resourceUri: z.string().max(2100) }).optional(),
  }),
  z.object({
    kind: z.literal('tool_result'),
    callId: id,
    isError: z.boolean(),
    content: z.array(toolContentSchema),
    durationMs: z.number(),
    /** A tool with a view: the result as the server sent it (structuredContent, _meta), for the view; kept, never sent to the page. */
    appResult: z.unknown().optional(),
  }),
  z.object({
    kind: z.literal('approval_request'),
    callId: id,
    server: z.string(),
    tool: z.string(),
    reason: z.string(),
    preview: z.string().optional(),
    // The three below are absent in chats saved before they existed: none, none, 'tool'.
    /** Shown prominently before the buttons, e.g. "No OS sandbox: ...". */
    warnings: z.array(z.string()).optional(),
    /** Short neutral lines, e.g. "Sandboxed (bubblewrap), network off." */
    notes: z.array(z.string()).optional(),
    /** For running code: the gist of the notes and warnings, shown with them behind a disclosure. */
    summary: z.object({ text: z.string().max(200), warning: z.boolean() }).optional(),
    alwaysKind: alwaysKindSchema.optional(),
    /** With alwaysKind 'host': the hosts "always" allows (data would leave the machine for them). */
    hosts: z.array(z.string().max(300)).max(20).optional(),
    /** A file change the host can show as a diff ("Review changes"). */
    review: z.boolean().optional(),
    /** Asked for by the server's app view, not by the model. */
    fromApp: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('approval'), callId: id, decision: approvalDecisionSchema }),
  z.object({
    kind: z.literal('turn_end'),
    turnId: id,
    /** `max_tokens`: a reply hit the output limit again after going on once by itself. */
    status: z.enum(['done', 'stopped', 'error', 'max_iterations', 'max_tokens']),
    error: z.string().optional(),
    /** What the person can do about it: the button the chat shows beside the message. */
    action: turnActionSchema.optional(),
    /** For `retry`: how long the API asked to wait (its retry-after), counted down before Retry is enabled. */
    retryAfterS: z.number().nonnegative().max(3600).optional(),
    /** Absent when no model call answered (and in chats saved before usage was kept). */
    usage: turnUsageSchema.optional(),
  }),
  /** Older messages were replaced by a summary the model wrote, to fit its context window. */
  z.object({
    kind: z.literal('compaction'),
    turnId: id,
    replaced: z.number().int().nonnegative(),
    summary: z.string().max(100_000),
    tokensBefore: tokens,
    tokensAfter: tokens,
  }),
  /** The turn changed these files; its snapshots (our own git, never the person's) let it be undone. */
  z.object({
    kind: z.literal('checkpoint'),
    turnId: id,
    before: z.string().regex(/^[0-9a-f]{40,64}$/),
    after: z.string().regex(/^[0-9a-f]{40,64}$/),
    files: z.array(z.string().max(4096)).max(10_000),
    /** Changed files it does not hold, which Restore leaves as they are (absent in chats saved before checkpoints had limits). */
    notCovered: z.array(notCoveredSchema).max(1_000).optional(),
    /** How many there were when more than the list holds. */
    notCoveredCount: z.number().int().nonnegative().optional(),
  }),
  z.object({
    kind: z.literal('notice'),
    level: z.enum(['info', 'warning', 'error']),
    text: z.string(),
    /** `setKey`: the notice says a key is missing; it goes away once one is set. */
    action: z.enum(['setKey']).optional(),
    /** A slash command's answer (/tools, /help): lines shown as they are, never sent to the model. */
    listing: z.boolean().optional(),
  }),
]);
export type ChatEvent = z.infer<typeof chatEventSchema>;

const chatStateSchema = z.object({
  hasKey: z.boolean(),
  trusted: z.boolean(),
  busy: z.boolean(),
  model: z.string(),
  workspaceName: z.string(),
  /** Servers that are not ready, so the chat can say why tools are missing. */
  serverProblems: z.array(z.string()),
  /** The open chat: its title and what all its turns used. */
  chat: z
    .object({
      title: z.string().max(200),
      usage: z.object({ input: tokens, output: tokens, cacheRead: tokens, cacheWrite: tokens, costUsd: z.number().nonnegative().optional() }),
      /** Turns whose model has no known price: the cost shown is then a lower bound. */
      unpricedTurns: z.number().int().nonnegative(),
    })
    .optional(),
  /** Servers whose sampling runs without asking ("Always for this server"), and how much of their token budget they used. */
  samplingBudgets: z
    .array(z.object({ server: z.string().max(200), used: tokens, limit: tokens }))
    .max(100)
    .optional(),
});
export type ChatState = z.infer<typeof chatStateSchema>;

/** One piece of a message a server wants the model to answer (sampling), as the card shows it. */
const askContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(100_000) }),
  z.object({ type: z.literal('image'), mimeType: imageMimeSchema, data: imageDataSchema }),
  /** Audio, a tool call or a tool result: named, not drawn. */
  z.object({ type: z.literal('other'), label: z.string().max(2_000) }),
]);
export type AskContent = z.infer<typeof askContentSchema>;

/**
 * A server asks the person something (the client half of MCP): to let the model answer its messages
 * (sampling), to fill in a form, or to open a page (elicitation). Shown as a card until answered or
 * withdrawn; not part of the chat's saved events (a server asks the window, not one conversation).
 */
export const clientAskSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('sampling'),
    askId: id,
    server: z.string().max(200),
    /** An MCP App view asks (`server` names it as "the view of …"): its "Always" is the view's, apart from its server's. */
    byView: z.literal(true).optional(),
    messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.array(askContentSchema).max(100) })).max(200),
    systemPrompt: z.string().max(100_000).optional(),
    maxTokens: z.number().int().nonnegative(),
    /** The server asked for more than `maxTokens`: what it asked, and whose limit took it down. */
    asked: z.object({ maxTokens: z.number().int().nonnegative(), limitedBy: z.enum(['model', 'budget']) }).optional(),
    /** The server's model hints, as it gave them. */
    modelHint: z.string().max(1_000).optional(),
    /** The model that would answer. */
    model: z.string().max(200),
    /** Tools the server lets the model call in its reply. */
    tools: z.array(z.string().max(200)).max(200),
    /** The tokens "Always for this server" allows before it asks again. */
    alwaysLimit: tokens.optional(),
    /** The server had "Always" and its budget cannot take this request: what it used of how much. */
    spent: z.object({ used: tokens, limit: tokens }).optional(),
  }),
  z.object({
    kind: z.literal('form'),
    askId: id,
    server: z.string().max(200),
    message: z.string().max(100_000),
    fields: z.array(formFieldSchema).max(50),
    /** Fields that look like they ask for a secret, which MCP forbids in a form: the card warns not to type one. */
    secretFields: z.array(z.string().max(1_000)).max(50).optional(),
  }),
  /** Open a page: the full URL is shown before the person agrees, its registrable domain set apart. */
  z.object({
    kind: z.literal('url'),
    askId: id,
    server: z.string().max(200),
    message: z.string().max(100_000),
    url: z.string().max(10_000),
    site: z.object({
      /** The host as in the URL (`xn--` form for an international name), port included. */
      host: z.string().max(300),
      /** Its registrable domain by the Public Suffix List (`evil.io` of `login.example.com.evil.io`). */
      domain: z.string().max(300),
      /** How an international host reads in Unicode (it may imitate another name). */
      unicode: z.string().max(300).optional(),
    }),
  }),
]);
export type ClientAsk = z.infer<typeof clientAskSchema>;

/** How an ask ended: the person's answer, or `withdrawn` (the server cancelled it, or it went away). */
const askOutcomeSchema = z.enum(['once', 'always', 'deny', 'accept', 'decline', 'cancel', 'withdrawn']);
export type AskOutcome = z.infer<typeof askOutcomeSchema>;

/** The person's answer to a ClientAsk, of the same kind. */
const askAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sampling'), decision: approvalDecisionSchema }),
  z.object({ kind: z.literal('form'), action: z.enum(['accept', 'decline', 'cancel']), content: z.record(z.string().max(1_000), fieldValueSchema).optional() }),
  z.object({ kind: z.literal('url'), action: z.enum(['accept', 'decline', 'cancel']) }),
]);
export type AskAnswer = z.infer<typeof askAnswerSchema>;

const attempt = z.number().int().min(1).max(20);

/**
 * What a running turn waits for while nothing else on screen shows it (activity-text.ts words it): between
 * Enter and the first token, while the model thinks or writes a tool call, through the API's own retries.
 */
const turnActivitySchema = z.discriminatedUnion('kind', [
  /** A model request is out; `attempt` of `attempts` counts the SDK's retries (1 is the first try). */
  z.object({ kind: z.literal('request'), attempt, attempts: attempt }),
  z.object({ kind: z.literal('thinking') }),
  /** Servers were still starting when the turn began: it waits for them (a bounded wait), to see their tools. */
  z.object({ kind: z.literal('servers'), starting: z.array(z.string().max(200)).max(50) }),
  /** The model is writing a tool call's input (a whole file's content can take a while). */
  z.object({ kind: z.literal('tool_input'), tool: z.string().max(200) }),
  /** A request failed in a way the SDK retries: the next try, `attempt` of `attempts`, goes after `waitMs`. */
  z.object({
    kind: z.literal('retry'),
    reason: z.enum(['overloaded', 'rate_limited', 'server_error', 'connection']),
    status: z.number().int().optional(),
    waitMs: z.number().nonnegative().max(3_600_000),
    attempt,
    attempts: attempt,
  }),
  /** Older messages are being summarised to fit the model's window. */
  z.object({ kind: z.literal('compacting') }),
]);
export type TurnActivity = z.infer<typeof turnActivitySchema>;

/** Host -> webview. */
export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: chatStateSchema }),
  z.object({ type: z.literal('replay'), events: z.array(chatEventSchema) }),
  z.object({ type: z.literal('event'), event: chatEventSchema }),
  z.object({ type: z.literal('delta'), turnId: id, blockId: id, text: z.string() }),
  /** What the running turn waits for; transient like deltas. */
  z.object({ type: z.literal('activity'), turnId: id, activity: turnActivitySchema }),
  /** A running tool's progress (notifications/progress); transient like deltas. */
  z.object({
    type: z.literal('progress'),
    callId: id,
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().max(500).optional(),
  }),
  z.object({ type: z.literal('attach'), path: z.string(), label: z.string() }),
  z.object({ type: z.literal('focus') }),
  /** Text for the person to review and send (an MCP prompt's): added to the composer, never sent by itself. */
  z.object({ type: z.literal('fill'), text: z.string().max(1_000_000) }),
  /** The answer to a webview `request` (requests.ts): its result, checked by the page against the method's schema. */
  responseMessageSchema,
  /** A server asks the person something: show its card (again, after a reload). */
  z.object({ type: z.literal('ask'), ask: clientAskSchema }),
  /** The ask was answered (here or in another chat page) or withdrawn: its card says so and takes no more input. */
  z.object({ type: z.literal('askSettled'), askId: id, outcome: askOutcomeSchema, error: z.string().max(2_000).optional() }),
  /** A view's frame may load: the sandbox proxy's URL for it (the host's loopback listener, never the page's origin). */
  z.object({ type: z.literal('appFrame'), view: id, src: z.string().url().max(2_000), prefersBorder: z.boolean().optional() }),
  /** A view's JSON-RPC, for its frame (relayed unread). */
  z.object({ type: z.literal('app'), view: id, message: z.unknown() }),
  /** To a view's own editor tab ("full screen"), once it is ready: the call whose view it shows. */
  z.object({ type: z.literal('appTab'), callId: id, title: z.string().max(300) }),
  /** A view waits on its server (still starting after a reload): why, in its place until its frame comes. */
  z.object({ type: z.literal('appWaiting'), view: id, why: z.string().max(2_000) }),
  /** A view could not be shown, or was closed by the host: why, for its place under the card. */
  z.object({ type: z.literal('appGone'), view: id, why: z.string().max(2_000) }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export type { PastedImage } from './image-types';

/**
 * What the page tells a view about where it is drawn (SEP-1865's host context): the theme and its colours
 * as the standard style variables, and the room it has. Checked: names are CSS custom properties, values short.
 */
const appContextSchema = z.object({
  theme: z.enum(['light', 'dark']),
  variables: z.record(z.string().regex(/^--[a-z0-9-]{1,60}$/), z.string().max(300)).refine((v) => Object.keys(v).length <= 100),
  width: z.number().int().min(0).max(20_000),
  maxHeight: z.number().int().min(0).max(20_000),
  displayMode: z.enum(['inline', 'fullscreen']),
});
export type AppContext = z.infer<typeof appContextSchema>;

/** Webview -> host. Untrusted: nothing here can name a command or a path outside the workspace. */
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('stop') }),
  /** Open a workspace file named in an answer; the host checks the path is inside the workspace. */
  z.object({ type: z.literal('openFile'), path: z.string().min(1).max(4096), line: z.number().int().min(1).max(10_000_000).optional() }),
  /** Restore the files a turn changed to how they were before it (the host finds the turn's checkpoint itself). */
  z.object({ type: z.literal('restore'), turnId: id }),
  /** Send the failed request again (the conversation already ends with the person's message). */
  z.object({ type: z.literal('retry') }),
  z.object({ type: z.literal('approve'), callId: id, decision: approvalDecisionSchema }),
  z.object({ type: z.literal('setApiKey') }),
  z.object({ type: z.literal('newChat') }),
  /** A request with an answer (requests.ts): its params are checked against the method's schema before it is handled. */
  requestMessageSchema,
  /** A slash command typed in the composer (`/tools`, `/prompt s/n k=v`): run by the host, never sent to the model as text. */
  z.object({ type: z.literal('slash'), text: z.string().min(1).max(10_000) }),
  /** Show the diff of a file change waiting for approval again. */
  z.object({ type: z.literal('reviewEdit'), callId: id }),
  /** Open the model picker (the footer's model button, or /model in the composer). */
  z.object({ type: z.literal('pickModel') }),
  z.object({ type: z.literal('copy'), text: z.string().max(5_000_000) }),
  /** Open an image a tool returned in an editor tab: raster types only, base64, at most the 5 MiB the chat keeps. */
  z.object({
    type: z.literal('openImage'),
    mimeType: imageMimeSchema,
    data: imageDataSchema,
  }),
  /** The answer to a server's ask (the host ignores an id it no longer waits for, and re-checks a form's content). */
  z.object({ type: z.literal('answerAsk'), askId: id, answer: askAnswerSchema }),
  /** A tool card with a view came on the page: draw the view of call `callId` (the host finds its tool and input itself). */
  z.object({ type: z.literal('appMount'), view: id, callId: id, context: appContextSchema }),
  /** JSON-RPC from a view's frame, as its sandbox proxy relayed it: untrusted, checked by the host's bridge. */
  z.object({ type: z.literal('app'), view: id, message: z.unknown() }),
  /** The view's theme or room changed. */
  z.object({ type: z.literal('appContext'), view: id, context: appContextSchema }),
  /** The view left the page (its card went, the chat changed): the host asks it to wind down. */
  z.object({ type: z.literal('appUnmount'), view: id }),
  /** The person asked for the view in an editor tab of its own. */
  z.object({ type: z.literal('appFullScreen'), callId: id }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;
