import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * The one entry point every bundled server shares:
 * `node dist/servers/<name>.js <workspace-dir>`, MCP over stdio, logs only to stderr,
 * exit on stdin EOF, usage and a non-zero exit on a missing or bad argument.
 */
/** A server with something to close before the process exits (child processes, running work). */
export interface DisposableServer {
  server: McpServer;
  dispose: () => Promise<void>;
}

export async function runServer(
  name: string,
  build: (workspace: string) => McpServer | DisposableServer | Promise<McpServer | DisposableServer>,
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
  const built = await build(workspace);
  const { server, dispose } = built instanceof McpServer ? { server: built, dispose: async () => undefined } : built;
  const transport = new StdioServerTransport();
  let exiting = false;
  const exit = (): void => {
    if (exiting) return;
    exiting = true;
    void dispose()
      .catch((err: unknown) => process.stderr.write(`${name}: ${(err as Error).message}\n`))
      .then(() => server.close())
      .finally(() => process.exit(0));
  };
  process.stdin.on('end', exit);
  process.stdin.on('close', exit);
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
  await server.connect(transport);
  process.stderr.write(`${name}: serving ${workspace}\n`);
}
