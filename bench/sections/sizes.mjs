// Bundle sizes: the dev build in dist/, a minified build (as --production makes it) and the VSIX.
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT, buildMinified } from '../lib/setup.mjs';
import { fmtBytes, fmtRatio, ratio } from '../lib/stats.mjs';

const KiB = 1024;
const size = (p) => (existsSync(p) ? statSync(p).size : undefined);

export async function benchSizes() {
  const min = await buildMinified();
  const items = [
    { what: 'extension host bundle', dist: 'dist/extension.js', min: min.extension, aim: 800 * KiB, anchor: 1055 * KiB },
    ...min.lazy.map((file) => ({ what: '  loaded on first use', dist: `dist/lazy/${basename(file)}`, min: file })),
    { what: 'webview chat bundle', dist: 'dist/webview/chat.js', min: min.chat },
    { what: 'server: workspace', dist: 'dist/servers/workspace.js' },
    { what: 'server: web', dist: 'dist/servers/web.js' },
    { what: '  its HTML-conversion workers', dist: 'dist/servers/web-html-worker.js' },
    { what: 'server: research', dist: 'dist/servers/research.js' },
    { what: "every server's 2026-07-28 side, loaded for such a client", dist: 'dist/servers/modern-era.js' },
    { what: '  its JSON Schema validator, loaded on first use', dist: 'dist/servers/server-ajv.js' },
  ];
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
    header: ['file', 'dist (dev build)', 'minified', 'anchor', 'minified vs anchor', 'aim'],
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
