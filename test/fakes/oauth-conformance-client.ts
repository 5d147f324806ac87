/**
 * The official MCP conformance suite's `auth/*` client scenarios against the host's OAuth:
 * `node out/test/fakes/oauth-conformance-client.js <server-url>` connects with McpConnection and the
 * host's OAuth provider (core/mcp/oauth), a person who says yes and a "browser" that follows the
 * authorization URL's redirects to the loopback listener, then calls every tool once. Scenario data
 * (pre-registered client credentials) comes in MCP_CONFORMANCE_CONTEXT, as the suite documents.
 * Run by hand with the suite's Node 22 (see README's OAuth lines); not part of `npm test`.
 */
import { McpConnection } from '../../src/core/mcp/session/connection';
import { oauthKey } from '../../src/core/mcp/oauth/oauth-key';
import { MemoryOAuthStore } from '../../src/core/mcp/oauth/oauth-store';

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  if (!url?.startsWith('http')) {
    process.stderr.write('usage: oauth-conformance-client <server-url>\n');
    return 2;
  }
  const store = new MemoryOAuthStore();
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}') as { client_id?: string; client_secret?: string };
  if (context.client_id) await store.write(oauthKey(url), { client: { client_id: context.client_id, client_secret: context.client_secret } });
  const conn = new McpConnection(
    { name: 'conformance', transport: 'http', url },
    {
      oauth: {
        store,
        timeoutMs: 20_000,
        clientMetadataUrl: process.env.MCP_CONFORMANCE_CLIENT_METADATA_URL || undefined,
        authorize: async (request) => {
          process.stderr.write(`sign in at ${request.host}\n`);
          void fetch(request.url, { redirect: 'follow' }).then(
            (r) => process.stderr.write(`browser ended at ${r.url} (${r.status})\n`),
            (err: unknown) => process.stderr.write(`browser failed: ${String(err)}\n`),
          );
          return true;
        },
      },
    },
  );
  try {
    await conn.start();
    for (const tool of conn.tools) {
      const result = await conn.callTool(tool.name, {});
      process.stderr.write(`${tool.name}: ${JSON.stringify(result.content)}\n`);
    }
    return 0;
  } finally {
    await conn.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`oauth-conformance-client: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
