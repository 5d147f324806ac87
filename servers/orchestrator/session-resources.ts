import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isHeard, resourceListChanged, resourceUpdated } from '../lib/change-feed';
import { sessionsMarkdown } from './session-format';
import { SESSION_NAME, type SessionStore } from './session-store';
import { transcriptMarkdown } from './transcript-markdown';

const LIST_URI = 'sessions://list';
const MARKDOWN = 'text/markdown';
/** Messages arrive in bursts (a reply, then its tool results): one `updated` per resource per burst. */
const UPDATE_DEBOUNCE_MS = 100;

function sessionUri(name: string): string {
  return `sessions://${name}`;
}

/**
 * `sessions://list` and `sessions://{name}` (a session's transcript) for live views, with
 * `list_changed` when a session comes or goes and `updated` for the resources a client subscribed to.
 * Must be set up before the server connects (it declares the subscribe capability).
 */
export class SessionResources {
  private readonly subscribed = new Set<string>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly server: McpServer,
    private readonly store: SessionStore,
  ) {
    server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
    server.server.setRequestHandler(SubscribeRequestSchema, (req) => {
      this.subscribed.add(req.params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, (req) => {
      this.subscribed.delete(req.params.uri);
      return {};
    });
    server.registerResource(
      'sessions',
      LIST_URI,
      { title: 'Agent sessions', description: 'Every orchestrated session: agent, status, turns, tokens, last activity', mimeType: MARKDOWN },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: MARKDOWN, text: sessionsMarkdown(await this.store.list()) }] }),
    );
    server.registerResource(
      'session',
      new ResourceTemplate('sessions://{name}', {
        list: async () => ({
          resources: (await this.store.list()).map((r) => ({
            uri: sessionUri(r.name),
            name: r.name,
            title: `${r.name} (${r.agent}, ${r.status})`,
            mimeType: MARKDOWN,
          })),
        }),
        complete: { name: async (value) => (await this.store.list()).map((r) => r.name).filter((n) => n.startsWith(value)) },
      }),
      { title: 'Session transcript', description: "A session's transcript as Markdown", mimeType: MARKDOWN },
      async (uri, variables) => {
        const name = String(Array.isArray(variables.name) ? variables.name.join('/') : (variables.name ?? ''));
        const record = SESSION_NAME.test(name) ? await this.store.read(name) : undefined;
        if (!record) throw new McpError(ErrorCode.InvalidParams, `There is no session named "${name.slice(0, 80)}".`);
        const messages = await (await this.store.log(name)).load();
        return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text: transcriptMarkdown(record, messages) }] };
      },
    );
  }

  /** A session changed; `listChanged` when it was created or deleted. */
  changed(name: string, listChanged = false): void {
    if (listChanged) resourceListChanged(this.server);
    this.update(LIST_URI);
    this.update(sessionUri(name));
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
  }

  private update(uri: string): void {
    // A 2026-07-28 listener (isHeard) asks on its own stream: the bridge's router keeps to the URIs it named.
    if ((!this.subscribed.has(uri) && !isHeard(this.server)) || this.pending.has(uri)) return;
    const timer = setTimeout(() => {
      this.pending.delete(uri);
      resourceUpdated(this.server, uri, this.subscribed.has(uri));
    }, UPDATE_DEBOUNCE_MS);
    timer.unref();
    this.pending.set(uri, timer);
  }
}
