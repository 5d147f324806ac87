import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Carrier } from '../transport/carrier';
import { McpRequestError, McpStartError, ServerExited, describeExit, seconds } from './errors';
import { hostErrorOf, serverErrorOf } from './server-error';
import { messageOf } from '../../../node/error-message';

/** Turns whatever starting a server threw into a diagnosis a person can act on. */
export function diagnoseStartFailure(failure: unknown, ctx: { server: string; initMs: number; carrier: Carrier }): McpStartError {
  const { server, carrier } = ctx;
  // Asking the server its era (server/discover) failed for a reason of its own: that reason is the diagnosis.
  const err = failure instanceof SdkError && failure.code === SdkErrorCode.EraNegotiationFailed && failure.cause !== undefined ? failure.cause : failure;
  if (err instanceof McpStartError) return err;
  if (err instanceof ServerExited) {
    if (err.why) return new McpStartError('exited', `${err.why} (before it answered initialize)`);
    return new McpStartError('exited', carrier.explain(`server ${server} exited (${describeExit(err.info)}) before answering initialize`));
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
    const asked = /probe/i.test(err.message) ? 'server/discover (which protocol era it speaks)' : 'initialize';
    return new McpStartError('timeout', carrier.explain(`server ${server} did not answer ${asked} within ${seconds(ctx.initMs)}`), {
      cause: err,
    });
  }
  const specific = carrier.diagnoseStart(err, server);
  if (specific) return specific;
  return new McpStartError('protocol', carrier.explain(`server ${server} failed to initialize: ${messageOf(err)}`), { cause: err });
}

/** Turns whatever a request threw into an McpRequestError whose kind says what happened. */
export function diagnoseRequestFailure(
  err: unknown,
  ctx: { server: string; what: string; during: string; timeoutMs: number; signal?: AbortSignal; explain: (message: string) => string },
): McpRequestError {
  const { server, what, during, signal } = ctx;
  if (err instanceof McpRequestError) return err;
  // The server's own answer, whatever its code: its words, not a guess from the code.
  const answered = serverErrorOf(err);
  if (answered) return new McpRequestError('server-error', `server ${server} answered error ${answered.code}: ${answered.message}`, { cause: err });
  const host = hostErrorOf(err);
  if (host) return new McpRequestError('protocol', `${what} on server ${server} failed: ${host}`, { cause: err });
  if (err instanceof ServerExited) {
    if (err.why) return new McpRequestError('exited', err.why);
    return new McpRequestError('exited', ctx.explain(`server ${server} exited (${describeExit(err.info)}) during ${during}`));
  }
  // Checked before the timeout: the SDK rejects an aborted request with a RequestTimeout ProtocolError too.
  if (signal?.aborted) {
    const reason = signal.reason instanceof Error ? signal.reason.message : signal.reason ? String(signal.reason) : '';
    return new McpRequestError('cancelled', `${what} on server ${server} was cancelled${reason ? `: ${reason}` : ''}`, { cause: err });
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
    return new McpRequestError('timeout', `${what} on server ${server} did not answer within ${seconds(ctx.timeoutMs)}; it was cancelled`, {
      cause: err,
    });
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed) {
    return new McpRequestError('exited', ctx.explain(`server ${server} closed the connection during ${during}`));
  }
  return new McpRequestError('protocol', `${what} on server ${server} failed: ${messageOf(err)}`, { cause: err });
}

/**
 * Asked its era, the server answered server/discover after the probe's time was up: the client then sent a
 * 2025-11-25 initialize, which a server that had already taken the 2026-07-28 era refuses. That is a slow start,
 * not a server of the wrong era: a try with more time asks again (the hub's retries).
 */
export function slowProbeFailure(server: string, initMs: number, failure: McpStartError): McpStartError {
  return new McpStartError(
    'timeout',
    `server ${server} did not answer server/discover (which protocol era it speaks) within ${seconds(initMs)}; it then refused the 2025-11-25 initialize sent in its place (${failure.message})`,
    { cause: failure },
  );
}
