import type { Transport } from '@modelcontextprotocol/client';
import type { McpStartError, ServerExited } from '../session/errors';

/**
 * How one server's MCP session is carried: a child process over stdio (stdio-carrier.ts) or an HTTP
 * endpoint (http-carrier.ts). The session (connection.ts) talks MCP over `transport` and learns from here
 * only what it must tell a person: what runs, whether it ended on its own, and why.
 */
export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

export interface Carrier {
  /** How the messages travel (an `http` server may have fallen back to `sse`). */
  readonly kind: TransportKind;
  /** Messages to and from the server; started by the SDK client's connect. */
  readonly transport: Transport;
  /** What is reached, for diagnoses: the command, or the URL without credentials. */
  readonly target: string;
  /** The server's process id while it runs (stdio only). */
  readonly pid: number | undefined;
  /** Set once the carrier ended without close(): the process exited, the HTTP session was lost. */
  readonly ended: ServerExited | undefined;
  /** Called once when the carrier ends without close(). */
  onend?: (end: ServerExited) => void;
  /** Each line of the server's own diagnostics (a process's stderr), for its log. */
  onstderrline?: (line: string) => void;
  /** `message` with what the carrier saw that explains it (the last stderr of a process). */
  explain(message: string): string;
  /** Its last diagnostics (stderr) and how many bytes of them are held and were seen. */
  tail(maxChars?: number): string;
  tailBytes(): { held: number; total: number };
  /** A start failure this carrier can name better than the session can (a command not found, an HTTP status). */
  diagnoseStart(err: unknown, server: string): McpStartError | undefined;
  /** Ends the session and whatever carries it; resolves once it is gone (the process has exited). */
  close(): Promise<void>;
}
