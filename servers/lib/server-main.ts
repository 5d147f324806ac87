import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * The one entry point every bundled server shares:
 * `node dist/servers/<name>.js <workspace-dir>`, MCP over stdio, logs only to stderr,
 * exit on stdin EOF, usage and a non-zero exit on a missing or bad argument.
 */
export async function runServer(
  name: string,
  build: (workspace: string) => McpServer | Promise<McpServer>,
): Promise<void> {
  const arg = process.argv[2];
  const usage = `usage: node dist/servers/${name}.js <workspace-dir>\n`;
  if (!arg || arg === '--help' || arg === '-h') {
    process.stderr.write(usage);
    process.exit(arg ? 0 : 2);
  }
  const workspace = resolve(arg);
  let isDir = false;
  try {
    isDir = statSync(workspace).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    process.stderr.write(`${name}: workspace "${arg}" is not a directory\n${usage}`);
    process.exit(2);
  }
  // stdout belongs to the protocol: anything a library prints must go to stderr.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const server = await build(workspace);
  const transport = new StdioServerTransport();
  const exit = (): void => {
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', exit);
  process.stdin.on('close', exit);
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
  await server.connect(transport);
  process.stderr.write(`${name}: serving ${workspace}\n`);
}
