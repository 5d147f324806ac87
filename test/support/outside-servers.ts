// The MCP servers from npm the tests run against (devDependencies), where their entry scripts are.
import { join } from 'node:path';
import type { ServerConfig } from '../../src/core/mcp/types';
import { repoRoot } from './repo-root';

type OutsideServer = 'server-everything' | 'server-basic-vanillajs' | 'server-pdf' | 'server-memory';

/** The entry script of `@modelcontextprotocol/<name>`. */
export function outsideServer(name: OutsideServer): string {
  return join(repoRoot(), 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
}

/** The official server-everything over stdio, as the hub is given it. */
export function everythingConfig(name = 'everything'): ServerConfig {
  return { name, transport: 'stdio', command: process.execPath, args: [outsideServer('server-everything'), 'stdio'] };
}
