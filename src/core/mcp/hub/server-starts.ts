import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { ServerLogSink } from '../client/client-handlers';
import { McpConnection } from '../session/connection';
import type { EraMemory } from '../era/era-memory';
import { McpStartError, seconds } from '../session/errors';
import type { HubOptions } from './hub-types';
import type { OAuthFrontEnd } from '../oauth/front-end';
import { attemptLimit, hubLog, retryable, type Entry } from './hub-entry';
import { messageOf } from '../../../node/error-message';

/** What the starts need of the hub they serve. */
export interface StartsHost {
  readonly options: HubOptions;
  readonly eras: EraMemory;
  disposed(): boolean;
  roots(): string[];
  levelOf(server: string): LoggingLevel | undefined;
  /** Something a server reports changed (its state, its lists). */
  changed(): void;
  resourceUpdated(server: string, uri: string): void;
}

/**
 * Starting one server's connection and keeping it up: each try given a longer limit, a crash or a dropped
 * HTTP session restarted after a capped backoff, given up on (and said why) past its budget, its
 * subscriptions made again on the new session.
 */
export class ServerStarts {
  constructor(private readonly host: StartsHost) {}

  launch(entry: Entry): Promise<void> {
    if (this.host.disposed()) return Promise.resolve();
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.gaveUp = undefined;
    entry.startingSince ??= Date.now();
    entry.attempts++;
    entry.limitMs = attemptLimit(entry.config.startTimeoutMs ?? this.firstLimitMs(), entry.attempts);
    entry.detail =
      entry.attempts > 1
        ? `try ${entry.attempts}, given ${seconds(entry.limitMs)} to answer initialize${entry.lastFailure ? `; the last try: ${entry.lastFailure}` : ''}`
        : undefined;
    const generation = ++entry.generation;
    const connection = { ...this.host.options.connection, eras: this.host.eras };
    if (connection.oauth) connection.oauth = this.signInSeen(entry, generation, connection.oauth);
    const logging = connection.handlers?.logging;
    // The connection asks for its sink by name: it gets this entry's, so one server has one log.
    const handlers =
      logging && entry.sink
        ? { ...connection.handlers, logging: { sink: () => entry.sink as ServerLogSink, level: this.host.levelOf(entry.config.name) } }
        : connection.handlers;
    const conn = new McpConnection({ ...entry.config, startTimeoutMs: entry.limitMs }, { ...connection, handlers, roots: this.host.roots() });
    hubLog(entry, 'info', entry.restarts > 0 ? `starting again (restart ${entry.restarts}; ${entry.detail ?? `given ${seconds(entry.limitMs)}`})` : 'starting');
    entry.conn = conn;
    entry.launching = true;
    conn.on('change', () => {
      if (entry.generation === generation) this.host.changed();
    });
    conn.on('crash', (_info, message) => {
      if (entry.generation === generation) this.onCrash(entry, message);
    });
    conn.on('resourceUpdated', (uri) => {
      if (entry.generation === generation) this.host.resourceUpdated(entry.config.name, uri);
    });
    // start() moves to `starting` at once, which reports the change.
    return conn.start().then(
      () => {
        if (entry.generation !== generation) return;
        entry.launching = false;
        this.doneStarting(entry);
        if (this.host.disposed()) void conn.close();
        else {
          hubLog(entry, 'info', `ready: ${conn.status().serverVersion ?? 'no version given'}, ${conn.tools.length} tools`);
          void this.resubscribe(entry, conn);
        }
        this.host.changed();
      },
      (err: unknown) => {
        if (entry.generation !== generation) return;
        entry.launching = false;
        hubLog(entry, 'error', `failed to start: ${messageOf(err)}`);
        if (err instanceof McpStartError && retryable(err, entry)) return this.onCrash(entry, err.message);
        if (err instanceof McpStartError && err.kind === 'timeout') {
          const first = entry.config.startTimeoutMs ?? this.firstLimitMs();
          const limits = Array.from({ length: entry.attempts }, (_, i) => seconds(attemptLimit(first, i + 1)));
          entry.gaveUp = `${err.message}. Gave up after ${entry.attempts} tries (given ${limits.join(', ')}); raise its start limit or restart it by hand once fixed.`;
          hubLog(entry, 'error', `gave up: ${entry.gaveUp}`);
        }
        this.doneStarting(entry);
        this.host.changed();
      },
    );
  }

  /** The front end as this start uses it: once the person says yes, the entry says it waits on their sign-in. */
  private signInSeen(entry: Entry, generation: number, front: OAuthFrontEnd): OAuthFrontEnd {
    return {
      ...front,
      authorize: async (request) => {
        const yes = await front.authorize(request);
        if (yes && entry.generation === generation && entry.launching) {
          entry.signingIn = request.host;
          this.host.changed();
        }
        return yes;
      },
    };
  }

  /** The limit a server's first try is given when its config says none. */
  private firstLimitMs(): number {
    return this.host.options.startLimitMs?.() ?? this.host.options.connection?.initializeTimeoutMs ?? 15_000;
  }

  /** It is up, or failed for good: the next start counts its time and tries afresh. */
  private doneStarting(entry: Entry): void {
    entry.startingSince = undefined;
    entry.signingIn = undefined;
    entry.attempts = 0;
    entry.detail = undefined;
    entry.lastFailure = undefined;
  }

  private onCrash(entry: Entry, message: string): void {
    if (this.host.disposed()) return;
    const delay = entry.budget.next();
    if (delay === undefined) {
      const { maxRestarts, windowMs } = entry.budget;
      entry.gaveUp = `${message}. Gave up after ${maxRestarts} restart${maxRestarts === 1 ? '' : 's'} within ${seconds(windowMs)}; restart it by hand once fixed.`;
      hubLog(entry, 'error', `gave up: ${entry.gaveUp}`);
      this.doneStarting(entry);
      this.host.changed();
      return;
    }
    entry.startingSince ??= Date.now();
    entry.lastFailure = message;
    entry.restarts++;
    const again = entry.config.transport === 'stdio' ? 'restarting' : 'reconnecting';
    entry.detail = `${message}; ${again} in ${seconds(delay)} (restart ${entry.budget.recent} of ${entry.budget.maxRestarts})`;
    hubLog(entry, 'error', `crashed: ${entry.detail}`);
    entry.timer = setTimeout(() => void this.launch(entry), delay);
    this.host.changed();
  }

  /** Stops its connection; what it still reports is ignored. */
  async stop(entry: Entry): Promise<void> {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.generation++;
    const conn = entry.conn;
    entry.conn = undefined;
    entry.gaveUp = undefined;
    this.doneStarting(entry);
    await conn?.close();
  }

  /** After a restart the new session knows nothing of the old one's subscriptions. */
  private async resubscribe(entry: Entry, conn: McpConnection): Promise<void> {
    if (!conn.supports('subscribe')) return;
    for (const uri of entry.subscriptions) {
      await conn.subscribeResource(uri).catch((err: unknown) => hubLog(entry, 'warn', `subscribing again to ${uri} failed: ${messageOf(err)}`));
    }
  }
}
