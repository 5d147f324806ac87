/**
 * Starts a bundled server (`node dist/servers/<name>.js <workspace>`) over real stdio and connects
 * the MCP SDK client to it, the way any MCP host would.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { repoRoot } from '../../support/repo-root';
import { repoRoot } from '../../support/repo-root';

export interface BundledServer {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

export async function startBundledServer(name: string, workspace: string, env: Record<string, string> = {}): Promise<BundledServer> {
  const bundle = join(repoRoot(), 'dist', 'servers', `${name}.js`);
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`node esbuild.mjs\` first`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, workspace],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: `${name}-test`, version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}
