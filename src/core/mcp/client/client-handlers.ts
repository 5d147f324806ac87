/**
 * What the host does when a server asks something of it (the client half of MCP). Each front end (the
 * extension, the CLI) supplies the handlers it can serve; a capability is declared in `initialize`
 * exactly when its handler is here (VS Code's pattern), so a server never asks what nobody answers.
 */
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestParams,
  ElicitResult,
  LoggingLevel,
} from '@modelcontextprotocol/client';
import { APP_VIEW_MIME } from '../requests/app-visibility';
import { clientTaskCapabilities } from './client-tasks';

/** Who asks and until when: the signal aborts when the server cancels or goes away. */
export interface ServerRequestContext {
  server: string;
  signal: AbortSignal;
}

/** The levels of a LogOutputChannel, which the extension's per-server channels are. */
export type SinkLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Where one server's log goes: its `notifications/message`, its stderr, and what the host saw happen to it. */
export interface ServerLogSink {
  log(level: SinkLevel, text: string): void;
}

export interface LoggingHandler {
  /** The sink of one server; asked once per server name. */
  sink(server: string): ServerLogSink;
  /** The level servers are asked to log at (`logging/setLevel`); undefined leaves each server's own default. */
  level?: LoggingLevel;
}

export interface ElicitationHandler {
  /** Which modes the front end can show: a form, a URL to open, or both. */
  modes: Array<'form' | 'url'>;
  handle(params: ElicitRequestParams, ctx: ServerRequestContext): Promise<ElicitResult>;
}

export type SamplingHandler = (params: CreateMessageRequestParams, ctx: ServerRequestContext) => Promise<CreateMessageResult | CreateMessageResultWithTools>;

export interface ClientHandlers {
  /** `sampling/createMessage`; see sampling-broker.ts for the approved, capped implementation. */
  sampling?: SamplingHandler;
  /** `elicitation/create`; see elicitation-handler.ts. */
  elicitation?: ElicitationHandler;
  /** Server logs; also declares nothing (logging is a server capability) but makes the host ask for a level. */
  logging?: LoggingHandler;
}

/**
 * The capabilities to declare for these handlers (roots are always offered: the host has a workspace). `tasks`
 * says the host takes part in tasks (MCP 2025-11-25): it calls tools as tasks (tasks.ts), and runs as tasks the
 * sampling and elicitation it answers (client-tasks.ts).
 */
export function clientCapabilities(handlers: ClientHandlers): ClientCapabilities {
  // MCP Apps (SEP-1865): the chat draws views, and the CLI says a tool has one and where to see it.
  const caps: ClientCapabilities = {
    roots: { listChanged: true },
    tasks: clientTaskCapabilities(handlers),
    extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_VIEW_MIME] } },
  };
  if (handlers.sampling) caps.sampling = { tools: {} };
  const modes = handlers.elicitation?.modes ?? [];
  if (modes.length > 0) {
    caps.elicitation = {};
    // applyDefaults: a field the person left empty is sent with the schema's default (SEP-1034).
    if (modes.includes('form')) caps.elicitation.form = { applyDefaults: true };
    if (modes.includes('url')) caps.elicitation.url = {};
  }
  return caps;
}

/** MCP's eight syslog levels onto a LogOutputChannel's five. */
export function sinkLevel(level: LoggingLevel): SinkLevel {
  switch (level) {
    case 'debug':
      return 'debug';
    case 'info':
    case 'notice':
      return 'info';
    case 'warning':
      return 'warn';
    default:
      return 'error';
  }
}
