// Builds every bundle the project ships, plus the test bundles.
// Usage: node esbuild.mjs [--production] [--watch] [--no-tests] [--entries]
//   --entries: prints each entry file, one a line, and builds nothing. knip.jsonc must name every one as an entry
//   (test/unit/knip-entries.test.ts checks it), or knip takes what only that bundle uses for dead code.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  MODERN_ERA,
  MODERN_ERA_PLUGINS,
  SERVER_MINIFY,
  SERVER_WORKERS,
  NODE_TARGET,
  SHIPPED_PLUGINS,
  bundleEsmOnly,
  zodNamespace,
  lazyBundles,
  lazySplit,
  serverAjvBundle,
  SERVER_PLUGINS,
} from './scripts/esbuild-plugins.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const withTests = !process.argv.includes('--no-tests') && !production;

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const node = { ...common, ...NODE_TARGET };

/** What ships and runs as its own process (the extension host, the CLI, each server). */
const shipped = { ...node, plugins: SHIPPED_PLUGINS };
/** A server's bundles, in dist/servers/. */
const server = { ...shipped, ...(production ? SERVER_MINIFY : {}), plugins: SERVER_PLUGINS };

const servers = readdirSync('servers').filter((d) => d !== 'lib' && existsSync(join('servers', d, 'main.ts')));

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    ...shipped,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // What activation does not need loads from dist/lazy/ on first use.
    plugins: [...shipped.plugins, lazySplit],
  },
  ...lazyBundles(shipped, 'dist/lazy'),
  {
    ...shipped,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
  ...servers.map((name) => ({ ...server, entryPoints: [`servers/${name}/main.ts`], outfile: `dist/servers/${name}.js` })),
  { ...server, plugins: MODERN_ERA_PLUGINS, entryPoints: [MODERN_ERA.entry], outfile: `dist/servers/${MODERN_ERA.file}` },
  serverAjvBundle(server, 'dist/servers'),
  ...SERVER_WORKERS.map(({ entry, file }) => ({ ...server, entryPoints: [entry], outfile: `dist/servers/${file}` })),
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: { chat: 'media/chat/main.ts', 'app-tab': 'media/chat/app-tab.ts' },
    outdir: 'dist/webview',
    loader: { '.css': 'css' },
  },
];

function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return findTests(p);
    return /\.test\.ts$/.test(name) ? [p] : [];
  });
}

if (withTests) {
  const entries = ['unit', 'webview', 'integration', 'ui'].flatMap((tier) => findTests(`test/${tier}`));
  // Test helpers that run as their own processes (fake servers, hostile MCP servers, the VS Code launcher).
  const processes = readdirSync('test/fakes')
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `test/fakes/${f}`);
  builds.push({
    ...node,
    entryPoints: [...entries, ...processes],
    outdir: 'out/test',
    outbase: 'test',
    packages: 'external',
    plugins: [bundleEsmOnly, zodNamespace],
    sourcemap: 'inline',
  });
  if (existsSync('test/vscode/suite/index.ts')) {
    builds.push({
      ...node,
      entryPoints: ['test/vscode/suite/index.ts'],
      outfile: 'dist/test/suite/index.js',
      external: ['vscode', 'mocha'],
    });
  }
  if (existsSync('test/vscode/launcher.ts')) {
    builds.push({ ...node, entryPoints: ['test/vscode/launcher.ts'], outfile: 'out/test/vscode/launcher.js', packages: 'external' });
  }
}

if (process.argv.includes('--entries')) {
  for (const b of builds) for (const entry of Object.values(b.entryPoints ?? {})) console.log(entry);
  process.exit(0);
}

function copyAssets() {
  mkdirSync('dist/servers', { recursive: true });
  cpSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/servers/sql-wasm.wasm');
}

const started = Date.now();
if (watch) {
  copyAssets();
  for (const b of builds) (await esbuild.context(b)).watch();
  console.log('esbuild: watching');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  copyAssets();
  console.log(`esbuild: ${builds.length} bundles in ${Date.now() - started} ms${production ? ' (production)' : ''}`);
}
