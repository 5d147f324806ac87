import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROXY_PAGE } from './proxy-page';

/**
 * Serves the sandbox proxy page (proxy-page.ts) on 127.0.0.1, at a random path per extension session and a
 * random ticket per view: GET <base><ticket> answers the page under that view's CSP as a response header
 * (`sandbox allow-scripts` first), so the view can reach only what its resource declared, cannot navigate
 * its own frame anywhere, and the page is sandboxed even if something framed it without the attribute.
 * Everything else is a bare 404. Requests are never logged: in a browser-served VS Code the workbench's
 * session cookie comes along on this route.
 */
export class SandboxProxy {
  private server: Server | undefined;
  private started: Promise<string> | undefined;
  /** Random per session: no one who has not been shown a view's frame can find the listener's pages. */
  private readonly secret = randomBytes(24).toString('base64url');
  private readonly tickets = new Map<string, string>();

  /** Starts listening (once); resolves with the local base URL, `http://127.0.0.1:<port>/<secret>/`. */
  start(): Promise<string> {
    this.started ??= new Promise<string>((resolve, reject) => {
      const server = createServer((req, res) => this.answer(req, res));
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.server = server;
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/${this.secret}/`);
      });
    });
    return this.started;
  }

  /** A page for one view under `policy`; its path (relative to the base) is the ticket. */
  ticket(policy: string): string {
    const id = randomBytes(18).toString('base64url');
    this.tickets.set(id, policy);
    return id;
  }

  /** The view is gone: its page is no longer served. */
  release(ticket: string): void {
    this.tickets.delete(ticket);
  }

  dispose(): void {
    this.tickets.clear();
    this.server?.close();
    this.server?.closeAllConnections();
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const prefix = `/${this.secret}/`;
    const policy = path.startsWith(prefix) ? this.tickets.get(path.slice(prefix.length)) : undefined;
    if (policy === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `sandbox allow-scripts; ${policy}`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    res.end(req.method === 'HEAD' ? undefined : PROXY_PAGE);
  }
}
