import type { WebviewMessage } from '../../src/shared/protocol';

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
