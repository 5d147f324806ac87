import type { Client } from '@modelcontextprotocol/client';
import { sinkLevel, type ClientHandlers, type ServerLogSink } from './client-handlers';

/** The longest log message passed on; a server's `data` can be any JSON, of any size. */
const MAX_LOG_CHARS = 16 * 1024;

/**
 * Wires a session's client to the front end's handlers: the server's requests (sampling, elicitation)
 * go to them, its log messages to its sink. Call before connect, with the capabilities declared from the
 * same handlers (client-handlers.ts), since the SDK refuses a handler for an undeclared capability.
 * The same handlers answer both eras: a 2025-11-25 server sends the request itself, a 2026-07-28 one
 * answers its call `input_required` and the SDK asks them, then calls again with the answers.
 */
export function installClientHandlers(
  client: Client,
  server: string,
  handlers: ClientHandlers,
  sink: ServerLogSink | undefined,
  elicitationComplete?: (elicitationId: string) => void,
): void {
  const sampling = handlers.sampling;
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', (request, ctx) => sampling(request.params, { server, signal: ctx.mcpReq.signal }));
  }
  const elicitation = handlers.elicitation;
  if (elicitation && elicitation.modes.length > 0) {
    client.setRequestHandler('elicitation/create', (request, ctx) => elicitation.handle(request.params, { server, signal: ctx.mcpReq.signal }));
    client.setNotificationHandler('notifications/elicitation/complete', (n) => {
      sink?.log('info', `the server says elicitation ${n.params.elicitationId} is complete`);
      elicitationComplete?.(n.params.elicitationId);
    });
  }
  if (sink) {
    client.setNotificationHandler('notifications/message', (n) => {
      const { level, logger, data } = n.params;
      sink.log(sinkLevel(level), `${logger ? `[${logger}] ` : ''}${logText(data)}`);
    });
  }
}

function logText(data: unknown): string {
  let text: string;
  try {
    text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
  } catch {
    text = String(data);
  }
  return text.length > MAX_LOG_CHARS ? `${text.slice(0, MAX_LOG_CHARS)}… (${text.length} characters, cut)` : text;
}
