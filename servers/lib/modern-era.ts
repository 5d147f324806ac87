/**
 * Everything a bundled server needs for the 2026-07-28 era, loaded only when a client of that era comes: built as
 * its own bundle, dist/servers/modern-era.js (MODERN_ERA in scripts/esbuild-plugins.mjs), so a server started for a
 * 2025-11-25 client does not parse the v2 server package on every start (bench/README.md, `eras`).
 */
export { serveStdio } from '@modelcontextprotocol/server/stdio';
export { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
export { forwardChanges, modernFactory } from './modern-bridge';

/**
 * The Node adapter for --http, initialised only when asked for: it brings @hono/node-server, whose first line
 * reads the global Headers and so loads Node's fetch (undici), which a stdio server never needs (bench/README.md's
 * eras section).
 */
export async function nodeAdapter(): Promise<typeof import('@modelcontextprotocol/node').toNodeHandler> {
  return (await import('@modelcontextprotocol/node')).toNodeHandler;
}
