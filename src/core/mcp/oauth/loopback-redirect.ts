import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthProblem } from './oauth-errors';

const PATH = '/callback';
const PAGE = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/** What the authorization server's redirect carried: the code, and its `iss` when it names itself (RFC 9207). */
export interface AuthorizationResponse {
  code: string;
  iss?: string;
}

interface Waiter {
  resolve: (response: AuthorizationResponse) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Catches the authorization server's redirect back to this program (RFC 8252 §7.3): an HTTP listener
 * on 127.0.0.1 only, on the port used last time when it is free (so a registered client's redirect URI
 * stays valid), else any free one. Only a redirect carrying the `state` of a flow this process started
 * is accepted; anything else gets a 400 and changes nothing.
 */
export class LoopbackRedirect {
  private server: Server | undefined;
  private opening: Promise<string> | undefined;
  private readonly waiting = new Map<string, Waiter>();

  /** The redirect URI once open() has resolved. */
  url: string | undefined;

  /** Opens the listener (once); resolves to the redirect URI. */
  open(preferredPort?: number): Promise<string> {
    this.opening ??= this.listen(preferredPort).then((port) => (this.url = `http://127.0.0.1:${port}${PATH}`));
    return this.opening;
  }

  /** The authorization response of the redirect with this `state`; rejects on an error redirect or after `timeoutMs`. */
  expect(state: string, timeoutMs: number): Promise<AuthorizationResponse> {
    return new Promise<AuthorizationResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(state);
        reject(new OAuthProblem(`nobody finished signing in within ${Math.round(timeoutMs / 1000)} s; restart the server to try again`, 'failed'));
      }, timeoutMs);
      // Not unref'd: a flow waiting for the person keeps the process alive (the listener itself does not).
      this.waiting.set(state, { resolve, reject, timer });
    });
  }

  /** Stops listening; flows still waiting fail. */
  close(): void {
    for (const [state, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new OAuthProblem('the connection closed before signing in finished', 'failed'));
      this.waiting.delete(state);
    }
    this.server?.close();
    this.server?.closeAllConnections();
    this.server = undefined;
    this.opening = undefined;
    this.url = undefined;
  }

  private async listen(preferredPort: number | undefined): Promise<number> {
    const server = createServer((req, res) => this.handle(req, res));
    this.server = server;
    server.unref();
    const on = (port: number): Promise<number> =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      });
    if (preferredPort) {
      try {
        return await on(preferredPort);
      } catch {
        // Taken by something else: any free port will do (the client is registered again for it).
      }
    }
    return on(0);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = (status: number, title: string, text: string): void =>
      void res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE(title, text));
    if (req.method !== 'GET' || url.pathname !== PATH) return answer(404, 'Not found', 'Nothing is here.');
    const state = url.searchParams.get('state') ?? '';
    const waiter = this.waiting.get(state);
    if (!waiter) return answer(400, 'Unknown sign-in', 'This sign-in was not started here, or it has expired. Start it again from MCP Agent.');
    this.waiting.delete(state);
    clearTimeout(waiter.timer);
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (code && !error) {
      answer(200, 'Signed in', 'MCP Agent is signed in. You can close this tab.');
      const iss = url.searchParams.get('iss');
      waiter.resolve(iss === null ? { code } : { code, iss });
      return;
    }
    answer(400, 'Not signed in', 'The authorization server did not sign you in. See MCP Agent for why.');
    const description = url.searchParams.get('error_description');
    const why = `${error ?? 'no code'}${description ? `: ${description.slice(0, 300)}` : ''}`;
    waiter.reject(new OAuthProblem(`the authorization server did not sign you in (${why})`, 'failed'));
  }
}
