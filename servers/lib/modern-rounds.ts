import { randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { fingerprint } from './fingerprint';
import { runAsModernCall } from './modern-call';
import { heldCall, LiveCall, type Stop } from './modern-continuation';

/**
 * The key that signs the state a 2026-07-28 call carries between its rounds. Several processes behind one address
 * (stateless HTTP) need the same one: any of them answers any round. Unset, each process signs with a key of its
 * own, which is enough for stdio (one process serves the whole connection) and for one HTTP process.
 */
const REQUEST_STATE_KEY_ENV = 'MCP_AGENT_REQUEST_STATE_KEY';

/**
 * What travels with the client between the rounds of one call, signed (HMAC-SHA256, the v2 package's codec): the
 * call it belongs to, the answers so far and the question now asked. Nothing of it is kept in the process, so a
 * round may reach any process; signed, so a client cannot answer for the person a question it was not asked, nor
 * carry answers over to another call. The one exception is a call held open mid-way (`continuation`): its answer
 * must reach the process that holds it (modern-continuation.ts).
 */
interface RoundState {
  /** The call's fingerprint (method, tool or resource, arguments): the state is good for that call only. */
  call: string;
  /** Each answered question's key and the client's answer, in the order asked. */
  answers: Array<[string, unknown]>;
  /** The question asked in the round that minted this state. */
  asked: string;
  /** The id of the call held open in the process that minted this state, waiting for the answer. */
  continuation?: string;
}

let codec: RequestStateCodec<RoundState> | undefined;

/** The process's codec (its key from REQUEST_STATE_KEY_ENV, else random): the v2 Server's requestState.verify. */
export function roundStateCodec(env: NodeJS.ProcessEnv = process.env): RequestStateCodec<RoundState> {
  if (codec) return codec;
  const given = env[REQUEST_STATE_KEY_ENV];
  if (given !== undefined && Buffer.byteLength(given) < 32) throw new Error(`${REQUEST_STATE_KEY_ENV} must be at least 32 bytes long`);
  // A person's answer stays good for as long as they may take to give it (the orchestrator gives at most 15 minutes).
  return (codec = createRequestStateCodec<RoundState>({ key: given ?? randomBytes(32), ttlSeconds: 15 * 60 }));
}

/** The methods whose 2026-07-28 results may be `input_required`. */
export const ROUND_TRIP_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Said when an answer comes for a call this process does not hold. */
const NOT_HERE =
  'This call was waiting for its answer in another server process, or no longer waits: nobody answered in time, or ' +
  'the server restarted. A call that asks in the middle of its work is answered only by the process that runs it ' +
  '(over --http, send its rounds to the same process). Make the call again from the start.';

/**
 * Answers one round of a call, and decides how the call goes on after a question (one place for both ways):
 * - by default the handler runs afresh each round (the era's own way: the call is made again with the answers). A
 *   question the client answered in an earlier round is answered at once; the first one it did not ends the round:
 *   the handler's signal is aborted (its work stops before doing anything the answer decides) and the result asks
 *   the question. So a handler asks before it changes anything, or it changes the same thing again when made again;
 * - once the handler has begun what a rerun would repeat (`holdFromHere`: a sub-agent's turn, with its model calls
 *   and transcript), a question holds it open in this process instead, and the round that brings the answer goes
 *   on with it (a continuation, named in the signed state).
 */
export async function answerRound(
  request: { method: string; params?: Record<string, unknown> },
  ctx: ServerContext,
  run: (call: LiveCall) => Promise<unknown>,
): Promise<unknown> {
  // Hashed only when a round carries state or asks: most calls do neither, and pay nothing for it.
  const callOf = (): string =>
    fingerprint({ method: request.method, name: request.params?.name, uri: request.params?.uri, arguments: request.params?.arguments });
  const prior = ctx.mcpReq.requestState<RoundState>();
  if (prior !== undefined && (typeof prior !== 'object' || prior.call !== callOf())) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'This requestState belongs to another call');
  }
  const answers = new Map(prior?.answers ?? []);
  let call: LiveCall;
  if (prior?.continuation !== undefined) call = resumed(prior, ctx);
  else {
    const answered = prior ? ctx.mcpReq.inputResponses?.[prior.asked] : undefined;
    if (prior && answered !== undefined) answers.set(prior.asked, answered);
    // The SDK types the envelope as an empty object; its keys are the spec's.
    const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    const fresh = new LiveCall(capabilities, answers);
    fresh.start(() => runAsModernCall(fresh.modern, () => run(fresh)));
    call = fresh;
  }
  const { stop, id } = await call.serve(ctx);
  return roundResult(stop, { call: callOf(), answers: id === undefined ? [...answers] : [], asked: '', ...(id ? { continuation: id } : {}) });
}

/** The call held open that this round answers, given the answer: only to the question it was asked, once. */
function resumed(prior: RoundState, ctx: ServerContext): LiveCall {
  const call = heldCall(prior.continuation!);
  if (!call) throw new ProtocolError(ProtocolErrorCode.InvalidParams, NOT_HERE);
  if (call.asking() !== prior.asked) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'This requestState is of a question that was answered already');
  }
  const answer = ctx.mcpReq.inputResponses?.[prior.asked];
  if (answer === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses does not answer the question asked ("${prior.asked}")`);
  }
  call.answer(answer);
  return call;
}

/** What a round answers: the handler's result or error, or its question with the state to come back with. */
async function roundResult(stop: Stop, state: RoundState): Promise<unknown> {
  if (stop.kind === 'result') return stop.value;
  if (stop.kind === 'error') throw stop.error;
  return inputRequired({
    inputRequests: { [stop.key]: stop.request },
    requestState: await roundStateCodec().mint({ ...state, asked: stop.key }),
  });
}
