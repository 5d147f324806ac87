import type { StreamableHTTPReconnectionOptions } from '@modelcontextprotocol/client';
import type { ClientHandlers } from '../client/client-handlers';
import type { EraMemory } from '../era/era-memory';
import type { OAuthFrontEnd } from '../oauth/front-end';
import type { ExitInfo } from '../transport/stdio-transport';

/** What a connection (connection.ts) is told at its start, and what it reports. */
export interface ConnectionOptions {
  /** How long the server gets to answer `initialize` when its config does not say (`startTimeoutMs`). Default 15 s. */
  initializeTimeoutMs?: number;
  /** Default timeout of a tool call while it is silent (each progress notification resets it). Default 60 s. */
  callTimeoutMs?: number;
  /** Default limit on a whole tool call, progress or not, when the caller gives none. Default 10 min. */
  callTotalTimeoutMs?: number;
  /** Timeout of list, read and prompt requests. Default 30 s. */
  requestTimeoutMs?: number;
  /** Directories offered to the server as roots (roots/list). */
  roots?: string[];
  /** Bytes of stderr kept for diagnoses. Default 16 KiB. */
  stderrBytes?: number;
  /** Largest single message accepted from the server. Default 64 MiB. */
  maxMessageBytes?: number;
  /** Each step of close (stdin EOF, then SIGTERM) waits this long before the next. Default 2 s. */
  closeGraceMs?: number;
  /** HTTP: how a dropped event stream is retried when the server sent no `retry` (the SDK's defaults otherwise). */
  reconnection?: StreamableHTTPReconnectionOptions;
  /** HTTP: how a server that answers 401 is signed in to (OAuth); without it, a 401 is a failure to fix in the config. */
  oauth?: OAuthFrontEnd;
  clientInfo?: { name: string; version: string };
  /** Where a connection's own log lines go (stdout noise, list failures). Default: nowhere. */
  log?: (server: string, line: string) => void;
  /** A server's log budget: lines a second and at once past which its log lines are dropped and counted (log-flood.ts). */
  logBudget?: { perSecond?: number; burst?: number };
  /** What the host answers when the server asks (sampling, elicitation) and where its log goes; declares those capabilities. */
  handlers?: ClientHandlers;
  /** How long a sampling or elicitation the server asks as a task lives, its result kept included. Default 10 min. */
  clientTaskTtlMs?: number;
  /** Each server definition's protocol era, remembered: a known server is not asked again (no probe, no second process). */
  eras?: EraMemory;
}

export interface ConnectionEvents {
  /** State or lists changed. */
  change: () => void;
  /** The process exited or the HTTP session dropped without close() being called (a crash). */
  crash: (info: ExitInfo, message: string) => void;
  /** `notifications/resources/updated`: a resource (usually one subscribed to) changed. */
  resourceUpdated: (uri: string) => void;
  [event: string]: (...args: never[]) => void;
}
