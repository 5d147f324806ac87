/**
 * Everything a bundled server needs for the 2026-07-28 era, loaded only when a client of that era comes: built as
 * its own bundle, dist/servers/modern-era.js (MODERN_ERA in scripts/esbuild-plugins.mjs), so a server started for a
 * 2025-11-25 client does not parse the v2 server package (about 0.9 MB: 30-45 ms on every start, measured).
 */
export { serveStdio } from '@modelcontextprotocol/server/stdio';
export { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
export { toNodeHandler } from '@modelcontextprotocol/node';
export { forwardChanges, modernFactory } from './modern-bridge';
