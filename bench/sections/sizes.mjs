// Sizes of every file the VSIX ships (vsce's list): the dev build in dist/, a minified build (as --production
// makes it) where the bench builds one, and the VSIX.
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT, buildMinified } from '../lib/setup.mjs';
import { fmtBytes, fmtRatio, ratio } from '../lib/stats.mjs';

const KiB = 1024;
const size = (p) => (existsSync(p) ? statSync(p).size : undefined);

/** What `npm run package` puts in the VSIX: vsce's own list, so no shipped file is left out of the table. */
async function shippedFiles() {
  const { listFiles } = await import('@vscode/vsce');
  const files = await listFiles({ cwd: ROOT, packageManager: 'none' });
  // vsce lists README.md, but `npm run package` ships the details page (--readme-path) in its place, listed too.
  return files.filter((f) => f !== 'README.md').sort((a, b) => (size(join(ROOT, b)) ?? 0) - (size(join(ROOT, a)) ?? 0));
}

export async function benchSizes() {
  const min = await buildMinified();
  const minified = new Map([
    ['dist/extension.js', min.extension],
    ['dist/webview/chat.js', min.chat],
    ...min.lazy.map((file) => [`dist/lazy/${basename(file)}`, file]),
  ]);
  const known = {
    'dist/extension.js': { what: 'extension host bundle', aim: 800 * KiB, anchor: 1055 * KiB },
    'dist/cli.js': { what: 'the CLI' },
    'dist/webview/chat.js': { what: 'webview chat bundle' },
    'dist/servers/workspace.js': { what: 'server: workspace' },
    'dist/servers/web.js': { what: 'server: web' },
    'dist/servers/web-html-worker.js': { what: "web server's HTML-conversion workers" },
    'dist/servers/research.js': { what: 'server: research' },
    'dist/servers/orchestrator.js': { what: 'server: orchestrator' },
    'dist/servers/modern-era.js': { what: "every server's 2026-07-28 side, loaded for such a client" },
    'dist/servers/server-ajv.js': { what: "the servers' JSON Schema validator, loaded on first use" },
  };
  const items = (await shippedFiles()).map((file) => ({
    what: known[file]?.what ?? (file.startsWith('dist/lazy/') ? 'loaded on first use' : 'shipped'),
    dist: file,
    min: minified.get(file),
    aim: known[file]?.aim,
    anchor: known[file]?.anchor,
  }));
  const vsix = size(join(ROOT, 'mcp-agent.vsix'));
  const data = items.map((i) => ({
    what: i.what,
    path: i.dist,
    distBytes: size(join(ROOT, i.dist)),
    minifiedBytes: i.min ? size(i.min) : undefined,
    aimBytes: i.aim,
    anchorBytes: i.anchor,
  }));
  const rows = data.map((d) => [
    `${d.what} (${d.path})`,
    fmtBytes(d.distBytes),
    d.minifiedBytes === undefined ? '-' : fmtBytes(d.minifiedBytes),
    d.anchorBytes ? fmtBytes(d.anchorBytes) : '-',
    d.anchorBytes ? fmtRatio(ratio(d.minifiedBytes, d.anchorBytes)) : '-',
    d.aimBytes ? `≤ ${fmtBytes(d.aimBytes)}` : '-',
  ]);
  rows.push(['VSIX (mcp-agent.vsix)', vsix === undefined ? 'not built' : fmtBytes(vsix), '-', '-', '-', '≤ 5.0 MiB']);
  return {
    title: 'Bundle sizes',
    header: ['file', 'dev build', 'minified', 'anchor', 'minified vs anchor', 'aim'],
    rows,
    notes: [
      'minified = the same entry built with minify (as `npm run package` does) into out/bench/min',
      'loaded on first use = what activation does not need, each its own bundle in dist/lazy/ (scripts/esbuild-plugins.mjs)',
      'anchor = MCP client + Anthropic SDK + zod minified with `{ z }` imports (targets.md)',
      `the extension bundle carries (minified): ${min.extensionParts
        .slice(0, 8)
        .map((p) => `${p.part} ${fmtBytes(p.bytes)}`)
        .join(', ')}`,
      'the v2 MCP client (`@modelcontextprotocol/client`, both protocol eras) is its largest part; its Ajv is left out (mcp-client-shims.ts), the rest is imported as values across src/core/mcp',
    ],
    data: { files: data, vsixBytes: vsix, extensionParts: min.extensionParts },
  };
}
