import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { sinkLevel, type ClientHandlers, type ServerLogSink } from './client-handlers';

/** The longest log message passed on; a server's `data` can be any JSON, of any size. */
const MAX_LOG_CHARS = 16 * 1024;

/**
 * Wires a session's client to the front end's handlers: the server's requests (sampling, elicitation)
 * go to them, its log messages to its sink. Call before connect, with the capabilities declared from the
 * same handlers (client-handlers.ts), since the SDK refuses a handler for an undeclared capability.
 */
export function installClientHandlers(client: Client, server: string, handlers: ClientHandlers, sink: ServerLogSink | undefined): void {
  const sampling = handlers.sampling;
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => sampling(request.params, { server, signal: extra.signal }));
  }
  const elicitation = handlers.elicitation;
  if (elicitation && elicitation.modes.length > 0) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicitation.handle(request.params, { server, signal: extra.signal }));
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      sink?.log('info', `the server says elicitation ${n.params.elicitationId} is complete`);
    });
  }
  if (sink) {
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const { level, logger, data } = n.params;
      sink.log(sinkLevel(level), `${logger ? `[${logger}] ` : ''}${logText(data)}`);
    });
  }
}

function logText(data: unknown): string {
  let text: string;
  try {
    text = typeof data === 'string' ? data : JSON.stringify(data) ?? String(data);
  } catch {
    text = String(data);
  }
  return text.length > MAX_LOG_CHARS ? `${text.slice(0, MAX_LOG_CHARS)}… (${text.length} characters, cut)` : text;
}
