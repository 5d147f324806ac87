import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequest,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { runAsModernCall, type ModernCall } from './modern-call';

/**
 * The key that signs the state a 2026-07-28 call carries between its rounds. Several processes behind one address
 * (stateless HTTP) need the same one: any of them answers any round. Unset, each process signs with a key of its
 * own, which is enough for stdio (one process serves the whole connection) and for one HTTP process.
 */
export const REQUEST_STATE_KEY_ENV = 'MCP_AGENT_REQUEST_STATE_KEY';

/**
 * What travels with the client between the rounds of one call, signed (HMAC-SHA256, the v2 package's codec): the
 * call it belongs to, the answers so far and the question now asked. Nothing of it is kept in the process, so a
 * round may reach any process; signed, so a client cannot answer for the person a question it was not asked, nor
 * carry answers over to another call.
 */
interface RoundState {
  /** The call's fingerprint (method, tool or resource, arguments): the state is good for that call only. */
  call: string;
  /** Each answered question's key and the client's answer, in the order asked. */
  answers: Array<[string, unknown]>;
  /** The question asked in the round that minted this state. */
  asked: string;
}

let codec: RequestStateCodec<RoundState> | undefined;

/** The process's codec (its key from REQUEST_STATE_KEY_ENV, else random): the v2 Server's requestState.verify. */
export function roundStateCodec(env: NodeJS.ProcessEnv = process.env): RequestStateCodec<RoundState> {
  if (codec) return codec;
  const given = env[REQUEST_STATE_KEY_ENV];
  if (given !== undefined && Buffer.byteLength(given) < 32) throw new Error(`${REQUEST_STATE_KEY_ENV} must be at least 32 bytes long`);
  // A person's answer stays good for as long as they had to give it (the orchestrator asks for up to 10 minutes).
  return (codec = createRequestStateCodec<RoundState>({ key: given ?? randomBytes(32), ttlSeconds: 15 * 60 }));
}

/** The methods whose 2026-07-28 results may be `input_required`. */
export const ROUND_TRIP_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * Answers one round of a call by its v1 handler, run afresh each round (the era's way: the call is made again
 * with the answers). A question the client answered in an earlier round is answered at once; the first one it did
 * not ends the round: the handler's signal is aborted (its work stops before doing anything the answer decides)
 * and the result asks the question. So a handler asks before it changes anything, or it changes the same thing
 * again when made again (the orchestrator asks a sub-agent's questions of the person before the sub-agent runs).
 */
export async function answerRound(
  request: { method: string; params?: Record<string, unknown> },
  ctx: ServerContext,
  run: (signal: AbortSignal) => Promise<unknown>,
): Promise<unknown> {
  // Hashed only when a round carries state or asks: most calls do neither, and pay nothing for it.
  const callOf = (): string =>
    fingerprint({ method: request.method, name: request.params?.name, uri: request.params?.uri, arguments: request.params?.arguments });
  const prior = ctx.mcpReq.requestState<RoundState>();
  if (prior !== undefined && (typeof prior !== 'object' || prior.call !== callOf())) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'This requestState belongs to another call');
  }
  const answers = new Map(prior?.answers ?? []);
  const answered = prior ? ctx.mcpReq.inputResponses?.[prior.asked] : undefined;
  if (prior && answered !== undefined) answers.set(prior.asked, answered);

  const controller = new AbortController();
  const stop = (): void => controller.abort(ctx.mcpReq.signal.reason);
  if (ctx.mcpReq.signal.aborted) stop();
  ctx.mcpReq.signal.addEventListener('abort', stop, { once: true });
  let question: { key: string; request: InputRequest } | undefined;
  let asking: () => void = () => undefined;
  const asked = new Promise<undefined>((resolve) => (asking = () => resolve(undefined)));
  const times = new Map<string, number>();
  const modern: ModernCall = {
    // The SDK types the envelope as an empty object; its keys are the spec's.
    clientCapabilities: (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined,
    log: (level: LoggingLevel, data: unknown, logger: string) => void ctx.mcpReq.log(level, data, logger).catch(() => undefined),
    ask: (input) => {
      // The same question asked twice in a call is two questions: its place among its like tells them apart.
      const base = fingerprint(input);
      const n = times.get(base) ?? 0;
      times.set(base, n + 1);
      const key = `${base}.${n}`;
      if (answers.has(key)) return Promise.resolve(answers.get(key));
      if (!question) {
        question = { key, request: input as InputRequest };
        controller.abort(new Error('the client is asked first; the call is made again with its answer'));
        asking();
      }
      return Promise.reject(controller.signal.reason as Error);
    },
  };
  const done = runAsModernCall(modern, () => run(controller.signal));
  try {
    const first = await Promise.race([done.then((result) => ({ result })), asked]);
    if (first || !question) return first?.result;
    // What the aborted handler does now is nobody's answer.
    done.catch(() => undefined);
    const state: RoundState = { call: callOf(), answers: [...answers], asked: question.key };
    return inputRequired({ inputRequests: { [question.key]: question.request }, requestState: await roundStateCodec().mint(state) });
  } finally {
    ctx.mcpReq.signal.removeEventListener('abort', stop);
  }
}

/** A short stable hash of a JSON value (object keys sorted, so the same question always hashes the same). */
function fingerprint(value: unknown): string {
  return createHash('sha256').update(stable(value)).digest('base64url').slice(0, 22);
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([k, v]) => v !== undefined && k !== '_meta');
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
