import * as vscode from 'vscode';
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { LoggingHandler, ServerLogSink } from '../../core/mcp/client/client-handlers';
import { LogBatcher } from '../../core/mcp/client/log-batcher';

/** What ServerLogs needs of the hub: the level one server is asked to log at. */
export interface LogLevelTarget {
  setLogLevel(level: LoggingLevel | undefined, server: string): Promise<void>;
}

interface ServerLog {
  channel: vscode.LogOutputChannel;
  levelSub: vscode.Disposable;
}

/** The name of a server's output channel. */
function serverLogName(server: string): string {
  return `MCP Agent: ${server}`;
}

/**
 * One LogOutputChannel per MCP server ("MCP Agent: <server>"), made the first time the server logs or
 * the person asks for it. The hub's sink for each server writes into it (stderr, `notifications/message`,
 * starts, crashes, restarts, give-ups), and the server is asked to log at the channel's level
 * (`logging/setLevel`), again whenever the person changes that level.
 */
export class ServerLogs implements LoggingHandler, vscode.Disposable {
  private readonly logs = new Map<string, ServerLog>();
  private readonly sinks = new Map<string, LogBatcher>();
  private target: LogLevelTarget | undefined;

  /** The hub is made with this handler, so it is told about the hub after. */
  follow(target: LogLevelTarget): void {
    this.target = target;
    for (const [server, log] of this.logs) void this.applyLevel(server, log.channel.logLevel);
  }

  sink(server: string): ServerLogSink {
    let sink = this.sinks.get(server);
    if (!sink) {
      sink = new LogBatcher(() => this.channel(server));
      this.sinks.set(server, sink);
    }
    return sink;
  }

  /** Shows a server's log, making its channel if it has none yet. */
  show(server: string): void {
    this.channel(server).show(true);
  }

  private channel(server: string): vscode.LogOutputChannel {
    const known = this.logs.get(server);
    if (known) return known.channel;
    const channel = vscode.window.createOutputChannel(serverLogName(server), { log: true });
    const levelSub = channel.onDidChangeLogLevel((level) => void this.applyLevel(server, level));
    this.logs.set(server, { channel, levelSub });
    void this.applyLevel(server, channel.logLevel);
    return channel;
  }

  private async applyLevel(server: string, level: vscode.LogLevel): Promise<void> {
    await this.target?.setLogLevel(mcpLevelOf(level), server).catch(() => undefined);
  }

  dispose(): void {
    for (const sink of this.sinks.values()) sink.dispose();
    for (const { channel, levelSub } of this.logs.values()) {
      levelSub.dispose();
      channel.dispose();
    }
    this.logs.clear();
    this.sinks.clear();
  }
}

/** A channel's level as the MCP level that makes a server send what the channel shows ("Off" asks for emergencies only). */
function mcpLevelOf(level: vscode.LogLevel): LoggingLevel {
  switch (level) {
    case vscode.LogLevel.Off:
      return 'emergency';
    case vscode.LogLevel.Trace:
    case vscode.LogLevel.Debug:
      return 'debug';
    case vscode.LogLevel.Info:
      return 'info';
    case vscode.LogLevel.Warning:
      return 'warning';
    default:
      return 'error';
  }
}
