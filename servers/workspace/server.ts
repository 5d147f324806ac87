import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerReadFile } from './read-file';
import { registerWriteFile } from './write-file';
import { registerEditFile } from './edit-file';
import { registerListDirectory } from './list-directory';
import { registerSearchFiles } from './search-files';
import { registerRunCode } from './run-code';
import { registerQueryDatabase } from './query-database';
import type { WorkspaceCore } from './workspace-core';

export const VERSION = '0.1.0';

/** The workspace server: files, Python and SQLite inside one folder, nothing outside it. One per client session. */
export function buildWorkspaceServer(core: WorkspaceCore): McpServer {
  const { sandbox } = core;
  const server = new McpServer(
    { name: 'workspace', title: 'MCP Agent workspace', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        `Files, Python and SQLite inside the workspace ${sandbox.given}. Paths are relative to it; nothing ` +
        'outside it can be read or written. Long files are read in pages: follow the "continue" notes.',
    },
  );
  registerReadFile(server, sandbox);
  registerWriteFile(server, sandbox);
  registerEditFile(server, sandbox);
  registerListDirectory(server, sandbox);
  registerSearchFiles(server, sandbox);
  registerRunCode(server, sandbox, core.os);
  registerQueryDatabase(server, sandbox, core.store);
  return server;
}
