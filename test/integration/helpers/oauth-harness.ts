// What the OAuth tests share: the protected fake (test/fakes/oauth-server.ts) as a process, and a
// "person" who answers the sign-in question and whose browser follows the authorization URL through to
// the host's loopback redirect over real HTTP.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthorizationRequest, OAuthFrontEnd } from '../../../src/core/mcp/oauth/front-end';
import { MemoryOAuthStore, type OAuthStore } from '../../../src/core/mcp/oauth/oauth-store';
import { repoRoot } from '../../support/repo-root';
import { startHttpServerProcess, type HttpServerProcess } from './http-server-process';

/** test/fakes/oauth-server.ts with its flags. */
export async function startOAuthFake(...flags: string[]): Promise<HttpServerProcess> {
  const script = join(repoRoot(), 'out', 'test', 'fakes', 'oauth-server.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`node esbuild.mjs\` first`);
  const ipv6 = flags.includes('--ipv6');
  const listen = flags.find((f) => f.startsWith('--listen='))?.slice('--listen='.length);
  const offLoopback = ipv6 || listen !== undefined;
  const p = await startHttpServerProcess([script, ...flags], {
    ready: /listening (\d+)/,
    env: offLoopback ? { MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL: '1' } : {},
  });
  if (ipv6) return { ...p, url: `http://[::1]:${p.port}/mcp` };
  return listen ? { ...p, url: `http://${listen.includes(':') ? `[${listen}]` : listen}:${p.port}/mcp` } : p;
}

/** What a browser ends on after following every redirect from `url`. */
export async function browse(url: string): Promise<{ status: number; url: string; text: string }> {
  const response = await fetch(url, { redirect: 'follow' });
  return { status: response.status, url: response.url, text: await response.text() };
}

export interface TestPerson extends OAuthFrontEnd {
  /** Every question asked, in order. */
  asked: AuthorizationRequest[];
  /** Where each visit of the browser ended. */
  visits: Array<Promise<{ status: number; url: string; text: string }>>;
}

/** A person who says `answer` to each sign-in question and, on a yes, whose browser goes to the URL. */
export function testPerson(answer = true, store: OAuthStore = new MemoryOAuthStore()): TestPerson {
  const person: TestPerson = {
    store,
    asked: [],
    visits: [],
    timeoutMs: 20_000,
    async authorize(request) {
      person.asked.push(request);
      if (answer) person.visits.push(browse(request.url.href));
      return answer;
    },
  };
  return person;
}
