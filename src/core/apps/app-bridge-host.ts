import type { AppBridge, McpUiDisplayMode, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  EmbeddedResource,
  ResourceLink,
} from '@modelcontextprotocol/client';
import type { CallToolResult, HubTool } from '../mcp/types';
import type { AppView } from './app-view';

/** What one view may ask of the host; each answer is the host's decision (tools-and-links policy lives there). */
interface AppViewHost {
  /** A tool of the view's own server, by its name there: the host checks visibility and asks as for the model. */
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  /** A resource of the view's own server. */
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  /** Opens a link once the person agrees; false when they did not. */
  openLink(url: string): Promise<boolean>;
  /** A reply of the model the view asks for (sampling/createMessage), on the person's approval; unset: not offered. */
  createMessage?(params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** Files the view offers (ui/download-file), saved where the person picks; false when refused or cancelled. */
  download(contents: ReadonlyArray<EmbeddedResource | ResourceLink>): Promise<boolean>;
  /** The view's message for the conversation (marked as the view's); throws when it is refused. */
  message(text: string): Promise<void>;
  /** What the view wants the model to know from now on (ui/update-model-context), replacing what it said before. */
  updateContext(text: string): void;
  /** The mode the view is now in, after it asked for `mode`. */
  displayMode(mode: McpUiDisplayMode): Promise<McpUiDisplayMode>;
  log(level: string, data: unknown): void;
}

export interface AppBridgeOptions {
  view: AppView;
  tool: HubTool['tool'];
  input: Record<string, unknown>;
  hostContext: McpUiHostContext;
  host: AppViewHost;
  /** To the page's frame of this view (through the sandbox proxy). */
  post: (message: unknown) => void;
  version: string;
}

/** The most a view's context for the model may hold (what is past it is cut). */
const MAX_CONTEXT_CHARS = 8_000;

type AppBridgeModule = typeof import('@modelcontextprotocol/ext-apps/app-bridge');
let sdk: AppBridgeModule | undefined;

/** The SDK's host side is 0.7 MB with its schemas: it loads with the first view (dist/lazy/app-bridge.js). */
function appBridgeSdk(): AppBridgeModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (LAZY_MODULES)
  sdk ??= require('@modelcontextprotocol/ext-apps/app-bridge') as AppBridgeModule;
  return sdk;
}

/**
 * The host's end of one view, on ext-apps' AppBridge: the view's JSON-RPC arrives through receive() (from the
 * chat page, which relays its proxy frame) and goes out through `post`. It hands the view its HTML once the
 * proxy is ready, the tool's input once the view is initialized, then the result, and asks the view to wind
 * down before it goes. Nothing the view asks is forwarded to a server by the SDK (it has no client here):
 * every request lands in an AppViewHost method.
 */
export class AppBridgeHost {
  private readonly bridge: AppBridge;
  private initialized = false;
  private result: CallToolResult | undefined;
  private cancelled: string | undefined;
  private closed = false;
  /** The host context as it stands; a change before the view is initialized waits for that (the protocol says so). */
  private context: McpUiHostContext;

  constructor(private readonly options: AppBridgeOptions) {
    this.context = options.hostContext;
    const { AppBridge } = appBridgeSdk();
    const { host, view } = options;
    this.bridge = new AppBridge(
      null,
      { name: 'mcp-agent', version: options.version },
      {
        openLinks: {},
        downloadFile: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {} },
        sandbox: { csp: view.csp.allowed },
        ...(host.createMessage ? { sampling: {} } : {}),
      },
      { hostContext: options.hostContext },
    );
    const b = this.bridge;
    b.onsandboxready = () => void b.sendSandboxResourceReady({ html: view.html, sandbox: 'allow-scripts', csp: view.csp.allowed });
    b.oninitialized = () => {
      this.initialized = true;
      b.setHostContext(this.context);
      void b.sendToolInput({ arguments: options.input });
      this.deliverOutcome();
    };
    b.oncalltool = async (params, ctx) => host.callTool(params.name, (params.arguments ?? {}) as Record<string, unknown>, ctx.mcpReq.signal) as never;
    b.onreadresource = async (params, ctx) => host.readResource(params.uri, ctx.mcpReq.signal) as never;
    b.onopenlink = async ({ url }) => ((await host.openLink(url)) ? {} : { isError: true });
    const sample = host.createMessage?.bind(host);
    if (sample) b.oncreatesamplingmessage = async (params, ctx) => (await sample(params, ctx.mcpReq.signal)) as never;
    b.ondownloadfile = async ({ contents }) => ((await host.download(contents)) ? {} : { isError: true });
    b.onmessage = async (params) => {
      const text = (params.content ?? [])
        .flatMap((c) => (c.type === 'text' ? [c.text] : []))
        .join('\n')
        .trim();
      if (!text) return { isError: true };
      await host.message(text);
      return {};
    };
    b.onupdatemodelcontext = async (params) => {
      const text = (params.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text] : []));
      if (params.structuredContent) text.push(JSON.stringify(params.structuredContent));
      host.updateContext(text.join('\n').slice(0, MAX_CONTEXT_CHARS));
      return {};
    };
    b.onrequestdisplaymode = async ({ mode }) => ({ mode: await host.displayMode(mode) });
    b.onloggingmessage = ({ level, data }) => host.log(level, data);
  }

  /** Connects the bridge to the page: call once, before receive(). */
  async start(): Promise<void> {
    await this.bridge.connect(this.transport as never);
  }

  /** What the SDK sends and receives through: the page's relay, nothing else. */
  private readonly transport = {
    start: async (): Promise<void> => undefined,
    send: async (message: unknown): Promise<void> => {
      if (!this.closed) this.options.post(message);
    },
    close: async (): Promise<void> => {
      this.closed = true;
    },
    onmessage: undefined as ((message: unknown) => void) | undefined,
  };

  /** A message from the view (untrusted: the bridge checks its shape and method). */
  receive(message: unknown): void {
    if (this.closed || !message || typeof message !== 'object') return;
    this.transport.onmessage?.(message);
  }

  /** The tool finished: the view gets the result once it is initialized (at once, if it is). */
  setResult(result: CallToolResult): void {
    this.result = result;
    this.deliverOutcome();
  }

  /** The call never ran or was stopped. */
  cancel(reason: string): void {
    this.cancelled = reason;
    this.deliverOutcome();
  }

  /** The theme or room changed: the view is told what changed (the SDK sends only the fields that differ). */
  setHostContext(change: McpUiHostContext): void {
    this.context = { ...this.context, ...change };
    if (this.initialized && !this.closed) this.bridge.setHostContext(this.context);
  }

  /** Asks the view to wind down (waiting a little for its answer), then stops listening to it. */
  async teardown(reason: string, waitMs = 500): Promise<void> {
    if (this.closed) return;
    if (this.initialized) {
      await Promise.race([this.bridge.teardownResource({ reason }).catch(() => undefined), new Promise((r) => setTimeout(r, waitMs).unref?.())]);
    }
    this.closed = true;
    await this.bridge.close().catch(() => undefined);
  }

  private deliverOutcome(): void {
    if (!this.initialized || this.closed) return;
    if (this.result) void this.bridge.sendToolResult(this.result as never);
    else if (this.cancelled !== undefined) void this.bridge.sendToolCancelled({ reason: this.cancelled });
  }
}
