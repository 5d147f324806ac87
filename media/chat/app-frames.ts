/**
 * MCP App views under their tool cards. The page never runs a view: it frames the host's sandbox proxy (another
 * origin, sandboxed to an opaque one) and relays the view's JSON-RPC to and from the host, unread but for one
 * thing, the view's size (ui/notifications/size-changed), which sets the frame's height here without a round
 * trip. Messages are told apart by which window sent them (`event.source`; every origin here is "null"): a proxy
 * frame's are relayed, and any other but the host's (vscode-api.ts, fromHost) are dropped.
 */
import type { AppContext, HostMessage, WebviewMessage } from '../../src/common/protocol';
import { h } from './dom';
import { stats } from './stats';

type Post = (message: WebviewMessage) => void;

/** Below this a view is a sliver; above it the chat would be all view (a taller one scrolls inside its frame). */
const MIN_HEIGHT = 40;
const MAX_HEIGHT = 2_000;
/** A view may be wider than the chat (its box then scrolls sideways), up to this. */
const MAX_WIDTH = 4_000;
const FIRST_HEIGHT = 120;

interface Frame {
  view: string;
  callId: string;
  box: HTMLElement;
  iframe?: HTMLIFrameElement;
  /** When each step of loading happened (ms on this page's clock), for the bench: mount, frame, then methods seen. */
  trace: Record<string, number>;
}

/** The theme's colours as SEP-1865's standard style variables, read from VS Code's own variables on this page. */
const STYLE_VARIABLES: Record<string, string> = {
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-background-tertiary': '--vscode-input-background',
  '--color-background-inverse': '--vscode-editor-foreground',
  '--color-background-info': '--vscode-editorInfo-background',
  '--color-background-danger': '--vscode-inputValidation-errorBackground',
  '--color-background-warning': '--vscode-inputValidation-warningBackground',
  '--color-text-primary': '--vscode-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-text-tertiary': '--vscode-disabledForeground',
  '--color-text-inverse': '--vscode-editor-background',
  '--color-text-info': '--vscode-textLink-foreground',
  '--color-text-danger': '--vscode-errorForeground',
  '--color-text-success': '--vscode-testing-iconPassed',
  '--color-text-warning': '--vscode-editorWarning-foreground',
  '--color-text-disabled': '--vscode-disabledForeground',
  '--color-border-primary': '--vscode-panel-border',
  '--color-border-secondary': '--vscode-widget-border',
  '--color-ring-primary': '--vscode-focusBorder',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
  '--font-text-md-size': '--vscode-font-size',
};

export class AppFrames {
  private readonly frames = new Map<string, Frame>();
  private readonly observer: ResizeObserver;
  private readonly nearScreen: IntersectionObserver;
  private lastTheme = '';

  /**
   * `fill`: the view's own editor tab ("full screen"): the frame takes the whole page and the view is told so.
   * Otherwise views sit under their cards, as high as they ask, with a button that opens one in its own tab.
   */
  constructor(
    private readonly post: Post,
    private readonly fill = false,
  ) {
    // The room a view has follows its box; the theme follows the body's class (VS Code swaps it in place).
    this.observer = new ResizeObserver(() => this.sendContexts());
    this.nearScreen = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          this.nearScreen.unobserve(entry.target);
          const frame = [...this.frames.values()].find((f) => f.box === entry.target);
          if (frame) this.mount(frame);
        }
      },
      { rootMargin: '600px 0px' },
    );
    new MutationObserver(() => this.themeChanged()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  /** A card of a tool with a view: its view's box goes right under the card, and the host is asked for it. */
  attach(callId: string, card: HTMLElement): void {
    const view = `${callId}:${Math.random().toString(36).slice(2)}`;
    const box = h('div', { class: 'app-view', attrs: { 'data-call-id': callId, 'data-state': 'loading', role: 'group', 'aria-label': 'MCP App view' } });
    card.after(box);
    if (!this.fill) {
      const open = h('button', {
        class: 'app-full-screen',
        text: 'Full screen',
        attrs: { type: 'button', title: 'Open this view in an editor tab' },
        onClick: () => this.post({ type: 'appFullScreen', callId }),
      });
      box.before(h('div', { class: 'app-view-bar' }, open));
    }
    this.frames.set(view, { view, callId, box, trace: {} });
    this.observer.observe(box);
    // A view is asked for when it comes near the screen: a reopened chat with many views runs only those in sight,
    // and a hidden chat page none (in the view's own tab it is in sight at once).
    this.nearScreen.observe(box);
  }

  private mount(frame: Frame): void {
    frame.trace.mount = performance.now();
    stats.appTraces[frame.callId] = frame.trace;
    this.post({ type: 'appMount', view: frame.view, callId: frame.callId, context: this.context(frame.box) });
  }

  handle(msg: Extract<HostMessage, { type: 'appFrame' | 'app' | 'appWaiting' | 'appGone' }>): void {
    const frame = this.frames.get(msg.view);
    if (!frame) return;
    if (msg.type === 'appFrame') {
      frame.trace.frame = performance.now();
      return this.load(frame, msg.src, msg.prefersBorder);
    }
    if (msg.type === 'app') {
      mark(frame, 'host', msg.message);
      return void frame.iframe?.contentWindow?.postMessage(msg.message, '*');
    }
    if (msg.type === 'appWaiting') return void frame.box.replaceChildren(h('div', { class: 'app-note', text: msg.why }));
    frame.box.dataset.state = 'gone';
    frame.box.replaceChildren(h('div', { class: 'app-note', text: msg.why }));
    // Nothing to open in a tab any more.
    if (frame.box.previousElementSibling?.classList.contains('app-view-bar')) frame.box.previousElementSibling.remove();
    this.drop(frame, false);
  }

  /**
   * Whether a window message was sent by a view's proxy frame, that is by the window of an iframe this page made:
   * then it is relayed to the host. Anything framed below a proxy (the view itself, or frames the view nests, to
   * any depth) is none of these windows, and is not the host's window either, so the page drops it (fromHost).
   */
  relayFromView(e: MessageEvent<unknown>): boolean {
    if (!e.source) return false;
    for (const frame of this.frames.values()) {
      if (frame.iframe?.contentWindow && frame.iframe.contentWindow === e.source) {
        this.relay(frame, e.data);
        return true;
      }
    }
    return false;
  }

  /** A call's result reached the page: noted for the bench (a view's first paint of it is measured from here). */
  resultArrived(callId: string): void {
    if ([...this.frames.values()].some((f) => f.callId === callId)) stats.appResultAt[callId] = performance.timeOrigin + performance.now();
  }

  /** The chat was cleared or replayed: every view winds down. */
  clear(): void {
    for (const frame of [...this.frames.values()]) this.drop(frame, true);
  }

  private load(frame: Frame, src: string, prefersBorder: boolean | undefined): void {
    const iframe = h('iframe', { attrs: { sandbox: 'allow-scripts', src, title: 'MCP App view', referrerpolicy: 'no-referrer' } });
    if (!this.fill) iframe.style.height = `${FIRST_HEIGHT}px`;
    frame.iframe = iframe;
    frame.box.dataset.state = 'loading';
    frame.box.classList.toggle('bordered', prefersBorder !== false);
    frame.box.replaceChildren(iframe);
  }

  private relay(frame: Frame, data: unknown): void {
    mark(frame, 'view', data);
    const m = data as { method?: unknown; params?: { height?: unknown; width?: unknown } } | null;
    if (m && typeof m === 'object' && m.method === 'ui/notifications/size-changed') {
      if (frame.iframe && !this.fill) fitWidth(frame.iframe, m.params?.width);
      const height = m.params?.height;
      if (typeof height === 'number' && Number.isFinite(height) && frame.iframe) {
        if (!this.fill) frame.iframe.style.height = `${Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height)))}px`;
        if (frame.box.dataset.state !== 'shown') {
          frame.box.dataset.state = 'shown';
          stats.appsShown++;
        }
      }
    }
    this.post({ type: 'app', view: frame.view, message: data });
  }

  private drop(frame: Frame, tell: boolean): void {
    this.observer.unobserve(frame.box);
    this.nearScreen.unobserve(frame.box);
    this.frames.delete(frame.view);
    if (tell && frame.trace.mount !== undefined) this.post({ type: 'appUnmount', view: frame.view });
  }

  private themeChanged(): void {
    const theme = document.body.className;
    if (theme === this.lastTheme) return;
    this.lastTheme = theme;
    this.sendContexts();
  }

  private sendContexts(): void {
    for (const frame of this.frames.values()) {
      if (frame.box.isConnected && frame.trace.mount !== undefined) this.post({ type: 'appContext', view: frame.view, context: this.context(frame.box) });
    }
  }

  private context(box: HTMLElement): AppContext {
    const style = getComputedStyle(document.body);
    const variables: Record<string, string> = {};
    for (const [name, from] of Object.entries(STYLE_VARIABLES)) {
      const value = style.getPropertyValue(from).trim();
      if (value && value.length <= 300) variables[name] = value;
    }
    const cls = document.body.classList;
    const dark = cls.contains('vscode-dark') || (cls.contains('vscode-high-contrast') && !cls.contains('vscode-high-contrast-light'));
    return {
      theme: dark ? 'dark' : 'light',
      variables,
      width: Math.max(0, Math.round(box.clientWidth)),
      maxHeight: this.fill ? Math.max(0, Math.round(box.clientHeight)) : MAX_HEIGHT,
      displayMode: this.fill ? 'fullscreen' : 'inline',
    };
  }
}

/**
 * A view that asks for more width than its frame has gets it, and its box scrolls sideways: its right edge stays
 * reachable. A view that asks for no more than the frame has (the SDK reports the frame's own width) follows the
 * chat's width as before.
 */
function fitWidth(iframe: HTMLIFrameElement, asked: unknown): void {
  if (typeof asked !== 'number' || !Number.isFinite(asked)) return;
  const width = Math.round(Math.min(MAX_WIDTH, Math.max(0, asked)));
  if (width > iframe.clientWidth) iframe.style.minWidth = `${width}px`;
  else if (width < (parseFloat(iframe.style.minWidth) || 0)) iframe.style.minWidth = '';
}

/** The first time a method passes each way, noted on the frame's trace (a few dozen entries at most). */
function mark(frame: Frame, from: 'host' | 'view', data: unknown): void {
  const method = (data as { method?: unknown } | null)?.method;
  const key = `${from}:${typeof method === 'string' ? method.slice(0, 60) : 'response'}`;
  if (!(key in frame.trace) && Object.keys(frame.trace).length < 40) frame.trace[key] = performance.now();
}
