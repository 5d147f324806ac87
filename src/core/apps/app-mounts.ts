import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '../mcp/types';
import type { AppContext, ChatEvent, HostMessage } from '../../common/protocol';
import type { McpHub } from '../mcp/hub/hub';
import type { HubTool } from '../mcp/types';
import type { CallOutcome } from '../tool-call/approved-call';
import { visibleToApp } from '../mcp/requests/app-visibility';
import { messageOf } from '../../node/error-message';
import { AppBridgeHost } from './app-bridge-host';
import { AppViewCache, readAppView, type AppView } from './app-view';
import { downloadsOf, type DownloadFile } from './app-downloads';
import type { SamplingHandler } from '../mcp/client/client-handlers';
import type { SandboxProxy } from './sandbox-proxy';
import { viewAsker } from '../sampling/view-asker';

/** What the views of one chat need of it: its events (to find a call), and its approval path and turns. */
export interface AppChat {
  readonly id: string;
  readonly events: readonly ChatEvent[];
  callForApp(tool: HubTool, input: Record<string, unknown>, signal: AbortSignal): Promise<CallOutcome>;
  /** A view's message as the next turn, marked as the view's; throws when it cannot be sent now. */
  sendFromApp(server: string, text: string): Promise<void>;
  /** What a call's view wants the model to know with the person's next message (empty: nothing any more). */
  setAppContext(callId: string, server: string, text: string): void;
}

/** What the front end decides: whether a link opens (after the person confirms), and where the proxy is reached. */
export interface AppFrontEnd {
  /** The loopback URL as the page can frame it (VS Code's asExternalUri; in a browser-served VS Code a proxied path). */
  externalUrl(local: string): Promise<string>;
  /** Asks the person, then opens; false when they did not agree or the link is not one to open. */
  openLink(server: string, url: string): Promise<boolean>;
  /** Saves a view's files where the person picks (their pick is their consent); false when they cancel. Unset: no downloads. */
  saveFiles?(server: string, files: DownloadFile[]): Promise<boolean>;
  /** The view asked for full screen (ui/request-display-mode): the front end shows the call's view on its own. */
  fullScreen?(callId: string): void;
  /**
   * Resolves once `server` has started or failed, its config applied first (a trust question included). A view
   * of a reopened chat waits for its server (after a reload it is still starting) instead of being refused.
   */
  serverStarted?(server: string): Promise<void>;
  log(line: string): void;
}

interface Mount {
  bridge: AppBridgeHost;
  ticket: string;
  callId: string;
  post: (m: HostMessage) => void;
}

/**
 * The views drawn in the chat pages: one bridge per view on a page (two pages, two views of one call). A page
 * mounts a view for a call it shows; the host finds the call's tool, input and kept result in the chat's own
 * events (the page names only the call), reads the view, gives the page a proxy URL for it, and relays. What a
 * view asks is decided here: only its own server's tools the app may see, through the chat's approval path.
 */
export class AppMounts {
  private readonly mounts = new Map<string, Mount>();
  /** Views whose server is still starting; unmounted while waiting, they are never mounted. */
  private readonly waiting = new Set<string>();
  private readonly cache = new AppViewCache();

  constructor(
    private readonly hub: McpHub,
    private readonly proxy: SandboxProxy,
    private readonly front: AppFrontEnd,
    private readonly version: string,
    /** The host's sampling (its card and limits); unset: views are not offered sampling. */
    private readonly sampling?: SamplingHandler,
  ) {}

  async mount(chat: AppChat, view: string, callId: string, context: AppContext, post: (m: HostMessage) => void): Promise<void> {
    if (this.mounts.has(view) || this.waiting.has(view)) return;
    const call = chat.events.find((e): e is Extract<ChatEvent, { kind: 'tool_call' }> => e.kind === 'tool_call' && e.callId === callId);
    if (!call?.app) return post({ type: 'appGone', view, why: 'This tool call has no view.' });
    const server = call.server;
    const toolOf = () => this.hub.status(server)?.tools.find((t) => t.name === call.tool);
    let tool = toolOf();
    if (!tool && this.front.serverStarted) {
      post({ type: 'appWaiting', view, why: `Waiting for MCP server ${server} to start…` });
      this.waiting.add(view);
      await this.front.serverStarted(server);
      if (!this.waiting.delete(view)) return;
      tool = toolOf();
    }
    try {
      if (!tool) throw new Error(`server ${server} is not running, or no longer has ${call.tool}`);
      const uri = call.app.resourceUri;
      const app = await this.cache.get(server, uri, () => this.readView(server, uri));
      for (const r of app.csp.refused) this.front.log(`view ${app.uri} of ${server}: refused a declared CSP entry (${r})`);
      const base = await this.proxy.start();
      const ticket = this.proxy.ticket(app.csp.policy);
      const external = (await this.front.externalUrl(base)).replace(/\/?$/, '/');
      const input = call.input && typeof call.input === 'object' ? (call.input as Record<string, unknown>) : {};
      const sampling = this.sampling;
      const bridge = new AppBridgeHost({
        view: app,
        tool,
        input,
        hostContext: hostContext(context, tool),
        post: (message) => post({ type: 'app', view, message }),
        version: this.version,
        host: {
          callTool: (name, args, signal) => this.callTool(chat, server, name, args, signal),
          readResource: (uri) => this.hub.readResource(server, uri),
          openLink: (url) => this.front.openLink(server, url),
          download: (contents) => this.download(server, contents),
          ...(sampling ? { createMessage: (params, signal) => sampling(params, { server: viewAsker(server), signal }) } : {}),
          message: (text) => chat.sendFromApp(server, text),
          updateContext: (text) => chat.setAppContext(callId, server, text),
          // Full screen is a second view of the call in a tab of its own; this one stays inline.
          displayMode: async (mode) => {
            if (mode === 'fullscreen') this.front.fullScreen?.(callId);
            return 'inline';
          },
          log: (level, data) => this.front.log(`view of ${server} [${level}]: ${JSON.stringify(data).slice(0, 500)}`),
        },
      });
      this.mounts.set(view, { bridge, ticket, callId, post });
      await bridge.start();
      const result = chat.events.find((e): e is Extract<ChatEvent, { kind: 'tool_result' }> => e.kind === 'tool_result' && e.callId === callId);
      if (result) this.deliver(bridge, result);
      post({ type: 'appFrame', view, src: `${external}${ticket}`, ...(app.prefersBorder !== undefined ? { prefersBorder: app.prefersBorder } : {}) });
    } catch (err) {
      this.front.log(`view of ${server}/${call.tool} not shown: ${messageOf(err)}`);
      post({ type: 'appGone', view, why: `The view could not be shown: ${messageOf(err)}` });
    }
  }

  /**
   * An event of the open chat. A call of a tool with a view starts: its view is read now, while the call waits
   * on its approval and runs, so the page's mount finds it read (a fast call's result comes before the page
   * mounts its view); a call's own read, so a view its server changed since is not drawn stale. A tool_result:
   * the views of that call get it.
   */
  onEvent(event: ChatEvent): void {
    if (event.kind === 'tool_call' && event.app) {
      const { server, app } = event;
      return this.cache.refresh(server, app.resourceUri, () => this.readView(server, app.resourceUri));
    }
    if (event.kind !== 'tool_result') return;
    for (const m of this.mounts.values()) if (m.callId === event.callId) this.deliver(m.bridge, event);
  }

  receive(view: string, message: unknown): void {
    this.mounts.get(view)?.bridge.receive(message);
  }

  context(view: string, context: AppContext): void {
    const m = this.mounts.get(view);
    if (m) m.bridge.setHostContext(styleContext(context));
  }

  async unmount(view: string, reason = 'The view was closed.'): Promise<void> {
    this.waiting.delete(view);
    const m = this.mounts.get(view);
    if (!m) return;
    this.mounts.delete(view);
    this.proxy.release(m.ticket);
    await m.bridge.teardown(reason);
  }

  /** The chat changed or the page went: every view winds down. */
  async unmountAll(reason: string): Promise<void> {
    await Promise.all([...this.mounts.keys()].map((v) => this.unmount(v, reason)));
  }

  /** A server restarted: its views are read again next time. */
  forget(server: string): void {
    this.cache.forget(server);
  }

  /** A view as its server serves it now, checked (its type, size and CSP: readAppView). */
  private readView(server: string, uri: string): Promise<AppView> {
    return readAppView((u) => this.hub.readResource(server, u), uri);
  }

  private deliver(bridge: AppBridgeHost, result: Extract<ChatEvent, { kind: 'tool_result' }>): void {
    const kept = result.appResult as CallToolResult | undefined;
    bridge.setResult(
      kept ?? {
        content: result.content.map((c) => (c.type === 'text' ? { type: 'text', text: c.text } : { type: 'image', data: c.data, mimeType: c.mimeType })),
        ...(result.isError ? { isError: true } : {}),
      },
    );
  }

  /** A view's ui/download-file: its own server's resources and inline files are saved; a web link is a link. */
  private async download(server: string, contents: Parameters<typeof downloadsOf>[0]): Promise<boolean> {
    if (!this.front.saveFiles) return false;
    const offered = await downloadsOf(contents, (uri) => this.hub.readResource(server, uri)).catch((err: unknown) => ({ refused: messageOf(err) }));
    if ('link' in offered) return this.front.openLink(server, offered.link);
    if ('refused' in offered) {
      this.front.log(`view of ${server}: download refused (${offered.refused})`);
      return false;
    }
    return this.front.saveFiles(server, offered.files);
  }

  /**
   * A tool the view asks for: by its name on the view's own server only, and only one whose visibility includes
   * "app"; then the chat's approval path, as if the model had asked (the card says the view asked).
   */
  private async callTool(chat: AppChat, server: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const tool = this.hub.serverTool(server, name);
    if (!tool || !visibleToApp(tool.tool)) return { isError: true, content: [{ type: 'text', text: `There is no tool named ${name} for this view.` }] };
    const outcome = await chat.callForApp(tool, args, signal);
    return outcome.ok ? outcome.result : { isError: true, content: [{ type: 'text', text: outcome.why }] };
  }
}

function styleContext(c: AppContext): McpUiHostContext {
  return {
    theme: c.theme,
    styles: { variables: c.variables as never },
    displayMode: c.displayMode,
    availableDisplayModes: ['inline', 'fullscreen'],
    containerDimensions: { width: c.width, maxHeight: c.maxHeight },
  };
}

function hostContext(c: AppContext, tool: HubTool['tool']): McpUiHostContext {
  return { ...styleContext(c), toolInfo: { tool: tool as never }, platform: 'desktop', locale: 'en-US' };
}
