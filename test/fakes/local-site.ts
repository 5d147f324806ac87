// A local HTTP site for tests that need "somewhere else": it answers every request with one body and
// remembers the paths it was asked for (a leak shows up there).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalSite {
  server: Server;
  port: number;
  hits: string[];
}

export async function localSite(body: string): Promise<LocalSite> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}
