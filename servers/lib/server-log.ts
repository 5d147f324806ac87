import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { modernCall } from './modern-call';

export interface ServerLog {
  log(level: LoggingLevel, message: string): void;
}

const SEVERITY = new Map(LoggingLevelSchema.options.map((level, i) => [level, i]));

/**
 * Declares `logging` on a bundled server and gives it a log the client sees (`notifications/message`),
 * filtered by the level the client set with `logging/setLevel` (default: info). Call before connect.
 * The SDK answers setLevel itself only for servers that declared logging when they were constructed;
 * servers built elsewhere get the same answer here. A message the client cannot take is dropped: a log
 * must never fail the work it describes. Within a 2026-07-28 request the log goes on that request, at the level
 * its `_meta` asks for (none asked: none sent), as that era has no session to send it on.
 */
export function enableLogging(server: McpServer, name: string): ServerLog {
  const existing = logs.get(server);
  if (existing) return existing;
  let level: LoggingLevel = 'info';
  server.server.registerCapabilities({ logging: {} });
  server.server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    level = request.params.level;
    return {};
  });
  const log: ServerLog = {
    log(at, message) {
      const call = modernCall();
      if (call) return call.log(at, message, name);
      if ((SEVERITY.get(at) ?? 0) < (SEVERITY.get(level) ?? 0) || !server.isConnected()) return;
      server.server.sendLoggingMessage({ level: at, logger: name, data: message }).catch(() => undefined);
    },
  };
  logs.set(server, log);
  return log;
}

/** One log per server, so a server that logs from its own code and its entry point shares one level. */
const logs = new WeakMap<McpServer, ServerLog>();
