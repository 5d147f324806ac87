import type { WebviewMessage } from '../../src/common/protocol';

/** What VS Code's webview runtime gives us; `acquireVsCodeApi` may be called only once per page. */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface Host {
  post(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export function connectHost(): Host {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}

/**
 * Whether a window message is the host's. VS Code's webview frame posts the host's messages into this page from its
 * own window, which has this page's origin (it hides itself from the page: `parent` is deleted, so it cannot be
 * compared by identity). Every view's frame, and every frame nested inside one to any depth, is sandboxed to an
 * opaque origin ("null"), so no message of theirs is the host's, however it is shaped. Decided by who sent it,
 * never by walking up frame levels.
 */
export function fromHost(e: MessageEvent<unknown>): boolean {
  return e.source !== null && window.origin !== 'null' && e.origin === window.origin;
}
