// What the bench needs before it measures: the project's bundles, our host client as a bundle,
// and the official filesystem server installed outside the repo.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SERVERS = ['workspace', 'web', 'research'];
export const serverBundle = (name) => join(ROOT, 'dist', 'servers', `${name}.js`);
export const ECHO_SERVER = join(ROOT, 'out', 'test', 'fakes', 'mcp-echo.js');
export const RAW_ECHO = join(ROOT, 'bench', 'raw-echo.mjs');
const HOST_BUNDLE = join(ROOT, 'out', 'bench', 'host.cjs');

/**
 * `node esbuild.mjs` (the dev build, tests included: the echo fake lives there). If the build fails
 * (someone's work in progress) but the bundles the bench needs exist, it measures those and says so.
 */
export function buildProject() {
  try {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    return { built: true };
  } catch (err) {
    const needed = [...SERVERS.map(serverBundle), ECHO_SERVER];
    const missing = needed.filter((p) => !existsSync(p));
    const why = String(err.stderr ?? err.message)
      .trim()
      .split('\n')
      .slice(0, 6)
      .join('\n');
    if (missing.length) throw new Error(`node esbuild.mjs failed and ${missing.join(', ')} is missing:\n${why}`, { cause: err });
    const oldest = Math.min(...needed.map((p) => statSync(p).mtimeMs));
    return {
      built: false,
      warning: `node esbuild.mjs failed; measuring the bundles already in dist/ and out/ (built ${new Date(oldest).toISOString()}):\n${why}`,
    };
  }
}

/**
 * Bundles McpConnection the way the extension bundles it (SDK included), so the bench times the
 * code users run rather than the SDK resolved from node_modules.
 */
export async function loadHost() {
  const esbuild = await import('esbuild');
  const { lazyAjv } = await import('../../scripts/esbuild-plugins.mjs');
  await esbuild.build({
    stdin: {
      contents: "export { McpConnection } from './src/core/mcp/session/connection'; export { MemoryEras } from './src/core/mcp/era/era-memory';",
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'bench-host.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: HOST_BUNDLE,
    logLevel: 'warning',
    plugins: [lazyAjv],
  });
  return createRequire(import.meta.url)(HOST_BUNDLE);
}

/**
 * Minified builds of the extension (with what it loads on first use, dist/lazy/) and the webview, as
 * `--production` makes them (esbuild.mjs: the same plugins and alias), into out/bench/min.
 */
export async function buildMinified() {
  const esbuild = await import('esbuild');
  const { NODE_TARGET, SHIPPED_PLUGINS, lazyBundles, lazySplit } = await import('../../scripts/esbuild-plugins.mjs');
  const out = join(ROOT, 'out', 'bench', 'min');
  const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', absWorkingDir: ROOT };
  const node = { ...common, ...NODE_TARGET, plugins: SHIPPED_PLUGINS };
  const lazy = lazyBundles(node, join(out, 'lazy'));
  const [extension] = await Promise.all([
    esbuild.build({
      ...node,
      entryPoints: ['src/extension.ts'],
      outfile: join(out, 'extension.js'),
      external: ['vscode'],
      plugins: [...SHIPPED_PLUGINS, lazySplit],
      metafile: true,
    }),
    ...lazy.map((b) => esbuild.build(b)),
    esbuild.build({
      ...common,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      entryPoints: { chat: 'media/chat/main.ts' },
      outdir: join(out, 'webview'),
      loader: { '.css': 'css' },
    }),
  ]);
  return {
    extension: join(out, 'extension.js'),
    extensionParts: partsOf(extension.metafile),
    lazy: lazy.map((b) => b.outfile),
    chat: join(out, 'webview', 'chat.js'),
  };
}

/** What a minified bundle carries, by npm package or by our own folder, largest first (esbuild's metafile). */
function partsOf(metafile) {
  const [output] = Object.values(metafile.outputs);
  const parts = new Map();
  for (const [file, input] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    const key = pkg ? pkg[1] : file.split('/').slice(0, 3).join('/');
    parts.set(key, (parts.get(key) ?? 0) + input.bytesInOutput);
  }
  return [...parts].sort((a, b) => b[1] - a[1]).map(([part, bytes]) => ({ part, bytes }));
}

/**
 * The servers as `--production` builds them (SERVER_MINIFY: whitespace and syntax, names kept), into
 * out/bench/min/servers, so `start` measures what ships beside the dev build in dist/.
 */
export async function buildShippedServers() {
  const esbuild = await import('esbuild');
  const { MODERN_ERA, MODERN_ERA_PLUGINS, NODE_TARGET, SERVER_MINIFY, SERVER_WORKERS, serverAjvBundle, SERVER_PLUGINS } =
    await import('../../scripts/esbuild-plugins.mjs');
  const out = join(ROOT, 'out', 'bench', 'min', 'servers');
  const entries = [
    ...SERVERS.map((name) => ({ entry: `servers/${name}/main.ts`, file: `${name}.js` })),
    ...SERVER_WORKERS.filter((w) => SERVERS.includes(w.server)),
    MODERN_ERA,
  ];
  const options = { bundle: true, ...NODE_TARGET, legalComments: 'none', logLevel: 'warning', absWorkingDir: ROOT, plugins: SERVER_PLUGINS, ...SERVER_MINIFY };
  await Promise.all([
    ...entries.map(({ entry, file }) =>
      esbuild.build({ ...options, ...(entry === MODERN_ERA.entry ? { plugins: MODERN_ERA_PLUGINS } : {}), entryPoints: [entry], outfile: join(out, file) }),
    ),
    esbuild.build(serverAjvBundle(options, out)),
  ]);
  copyFileSync(join(ROOT, 'dist', 'servers', 'sql-wasm.wasm'), join(out, 'sql-wasm.wasm'));
  return (name) => join(out, `${name}.js`);
}

/**
 * The official filesystem server, installed at bench time into a cache folder (never into the
 * project's dependencies) and reused when present. Returns its entry script and version.
 */
export function officialFilesystemServer() {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const dir = join(cache, 'mcp-agent', 'bench-baselines');
  const pkgDir = join(dir, 'node_modules', '@modelcontextprotocol', 'server-filesystem');
  if (!existsSync(join(pkgDir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    console.log(`installing @modelcontextprotocol/server-filesystem into ${dir} ...`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, '@modelcontextprotocol/server-filesystem'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (Object.values(pkg.bin ?? {})[0] ?? 'dist/index.js');
  return { script: join(pkgDir, bin), version: pkg.version };
}
