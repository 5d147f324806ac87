import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpRequestError, McpStartError, ServerExited, describeExit, messageOf, seconds, withStderr } from './errors';
import { serverErrorOf } from './server-error';
import type { ExitInfo } from './stdio-transport';

/** Turns whatever starting a server threw into a diagnosis a person can act on. */
export function diagnoseStartFailure(
  err: unknown,
  ctx: { server: string; command: string; initMs: number; stderr: string; exit?: ExitInfo },
): McpStartError {
  const { server, command, stderr } = ctx;
  if (err instanceof ServerExited) {
    const exit = ctx.exit ?? err.info;
    return new McpStartError('exited', withStderr(`server ${server} exited (${describeExit(exit)}) before answering initialize`, stderr));
  }
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    const hint =
      code === 'ENOENT'
        ? `command "${command}" was not found (check the path, or PATH: an editor started from the desktop may not see your shell's PATH)`
        : `could not run "${command}" (${code})`;
    return new McpStartError('spawn', `server ${server}: ${hint}: ${messageOf(err)}`, { cause: err });
  }
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return new McpStartError('timeout', withStderr(`server ${server} did not answer initialize within ${seconds(ctx.initMs)}`, stderr), {
      cause: err,
    });
  }
  return new McpStartError('protocol', withStderr(`server ${server} failed to initialize: ${messageOf(err)}`, stderr), { cause: err });
}

/** Turns whatever a request threw into an McpRequestError whose kind says what happened. */
export function diagnoseRequestFailure(
  err: unknown,
  ctx: { server: string; what: string; during: string; timeoutMs: number; signal?: AbortSignal; stderr: () => string },
): McpRequestError {
  const { server, what, during, signal } = ctx;
  if (err instanceof McpRequestError) return err;
  // The server's own answer, whatever its code: its words, not a guess from the code.
  const answered = serverErrorOf(err);
  if (answered) return new McpRequestError('server-error', `server ${server} answered error ${answered.code}: ${answered.message}`, { cause: err });
  if (err instanceof ServerExited) {
    if (err.why) return new McpRequestError('exited', err.why);
    return new McpRequestError('exited', withStderr(`server ${server} exited (${describeExit(err.info)}) during ${during}`, ctx.stderr()));
  }
  // Checked before the timeout: the SDK rejects an aborted request with a RequestTimeout McpError too.
  if (signal?.aborted) {
    const reason = signal.reason instanceof Error ? signal.reason.message : signal.reason ? String(signal.reason) : '';
    return new McpRequestError('cancelled', `${what} on server ${server} was cancelled${reason ? `: ${reason}` : ''}`, { cause: err });
  }
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return new McpRequestError('timeout', `${what} on server ${server} did not answer within ${seconds(ctx.timeoutMs)}; it was cancelled`, {
      cause: err,
    });
  }
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
    return new McpRequestError('exited', withStderr(`server ${server} closed the connection during ${during}`, ctx.stderr()));
  }
  return new McpRequestError('protocol', `${what} on server ${server} failed: ${messageOf(err)}`, { cause: err });
}
