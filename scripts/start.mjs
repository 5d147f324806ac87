// `npm start`: builds the extension, makes sure code-server is installed, and serves a real VS Code in the
// browser with MCP Agent installed and a sample workspace open. Runs until Ctrl+C.
// Usage: npm start [-- --watch]   Env: MCP_AGENT_PORT (default 8765), MCP_AGENT_HOST (default 127.0.0.1),
// MCP_AGENT_DEMO_DIR (where the workspace and VS Code profile live); ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and
// BRAVE_API_KEY reach the extension.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { startCodeServer } from './code-server.mjs';
import { ensureVscode } from './ensure-vscode.mjs';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const extensionId = `${pkg.publisher}.${pkg.name}`;
const demoDir = process.env.MCP_AGENT_DEMO_DIR ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcp-agent', 'demo');
const watch = process.argv.includes('--watch');

function say(msg) {
  console.log(`[start] ${msg}`);
}

function run(cmd, args) {
  say(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** The newest modification time under `dir` (0 when it is missing). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  const st = lstatSync(dir);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(dir).reduce((m, name) => Math.max(m, newest(join(dir, name))), st.mtimeMs);
}

/** Builds only when a source, the build script or the dependencies changed since the bundles were made. */
function build() {
  if (!existsSync(join(root, 'node_modules', 'esbuild'))) run('npm', ['ci']);
  const outputs = [
    'dist/extension.js',
    'dist/cli.js',
    'dist/webview/chat.js',
    ...['workspace', 'web', 'research', 'orchestrator'].map((s) => `dist/servers/${s}.js`),
  ];
  const built = Math.min(...outputs.map((f) => (existsSync(join(root, f)) ? lstatSync(join(root, f)).mtimeMs : 0)));
  const sources = Math.max(...['src', 'media', 'servers', 'esbuild.mjs', 'scripts/esbuild-plugins.mjs', 'package-lock.json'].map((p) => newest(join(root, p))));
  if (built > sources) {
    say('the build is up to date (nothing changed since the last one)');
    return;
  }
  run(process.execPath, ['esbuild.mjs', '--no-tests']);
}

/** A copy of sample-workspace/ made once, so the person's edits survive restarts. */
function prepareWorkspace() {
  const ws = join(demoDir, 'workspace');
  if (existsSync(ws)) return ws;
  const sample = join(root, 'sample-workspace');
  if (existsSync(sample)) cpSync(sample, ws, { recursive: true });
  else mkdirSync(ws, { recursive: true });
  say(`created the workspace ${ws}${existsSync(sample) ? ' from sample-workspace/' : ''}`);
  return ws;
}

/**
 * Installs the repo itself as the extension: a symlink in the extensions folder plus its entry in
 * extensions.json (VS Code treats a folder missing from that registry as a leftover and marks it obsolete).
 * No dev-mode payload in the URL, and a window reload picks up a rebuild.
 */
function linkExtension(extensionsDir) {
  const folder = `${extensionId}-${pkg.version}`;
  const link = join(extensionsDir, folder);
  mkdirSync(extensionsDir, { recursive: true });
  for (const name of readdirSync(extensionsDir)) {
    if (!name.startsWith(`${extensionId}-`) || name === folder) continue;
    const p = join(extensionsDir, name);
    // unlink a link (never recurse through it: it points at the repo)
    if (lstatSync(p).isSymbolicLink()) unlinkSync(p);
    else rmSync(p, { recursive: true, force: true });
  }
  if (!existsSync(link)) symlinkSync(root, link, 'dir');

  const registry = join(extensionsDir, 'extensions.json');
  const entries = existsSync(registry) ? JSON.parse(readFileSync(registry, 'utf8')) : [];
  const others = entries.filter((e) => e?.identifier?.id !== extensionId);
  const entry = {
    identifier: { id: extensionId },
    version: pkg.version,
    location: { $mid: 1, path: link, scheme: 'file' },
    relativeLocation: folder,
  };
  writeFileSync(registry, JSON.stringify([...others, entry]));

  const obsoleteFile = join(extensionsDir, '.obsolete');
  if (existsSync(obsoleteFile)) {
    const obsolete = JSON.parse(readFileSync(obsoleteFile, 'utf8'));
    for (const key of Object.keys(obsolete)) if (key.startsWith(`${extensionId}-`)) delete obsolete[key];
    writeFileSync(obsoleteFile, JSON.stringify(obsolete));
  }
}

async function serve() {
  const extensionsDir = join(demoDir, 'extensions');
  linkExtension(extensionsDir);
  const common = {
    root: join(demoDir, 'vscode'),
    keepRoot: true,
    extensionsDir,
    keepExistingSettings: true,
    host: process.env.MCP_AGENT_HOST ?? '127.0.0.1',
  };
  const wanted = process.env.MCP_AGENT_PORT;
  try {
    return await startCodeServer({ ...common, port: Number(wanted ?? 8765) });
  } catch (err) {
    if (wanted) throw err; // a port the person chose: say it failed rather than pick another
    say('port 8765 is taken; letting the system pick a free one');
    return startCodeServer({ ...common, port: 0 });
  }
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  // Runs before code-server.mjs's own handler, which stops the server and exits.
  process.once(signal, () => {
    stopping = true;
    say('stopping code-server...');
  });
}

async function main() {
  build();
  // bubblewrap puts run_code in its OS sandbox; without root it is only a note (run_code then says it is unsandboxed).
  const asRoot = process.getuid?.() === 0;
  ensureVscode({ browser: false, sandbox: asRoot });
  if (!asRoot && process.platform === 'linux' && !existsSync('/usr/bin/bwrap')) {
    say('bubblewrap is not installed, so run_code runs without an OS sandbox; `sudo apt-get install bubblewrap` adds it');
  }
  const workspace = prepareWorkspace();
  const server = await serve();
  if (watch) {
    const watcher = spawn(process.execPath, ['esbuild.mjs', '--watch', '--no-tests'], { cwd: root, stdio: 'inherit' });
    process.on('exit', () => watcher.kill());
  }
  const url = `${server.url}/?folder=${encodeURIComponent(workspace).replace(/%2F/g, '/')}`;
  const keys = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'BRAVE_API_KEY'].map((k) => `${k} ${process.env[k] ? 'set' : 'not set'}`);
  const line = '='.repeat(Math.max(60, url.length + 4));
  console.log(`\n${line}\n  MCP Agent in VS Code:\n\n  ${url}\n\n${line}`);
  console.log(`  workspace: ${workspace}\n  code-server log: ${server.logFile}\n  ${keys.join(', ')}`);
  console.log(`  ${watch ? 'Rebuilding on change; reload the window to pick it up. ' : ''}Ctrl+C stops.\n`);
  const code = await server.exited;
  if (stopping) return; // the signal handler finishes the shutdown
  say(`code-server exited on its own (${code}); see ${server.logFile}`);
  process.exit(1);
}

main().catch((err) => {
  console.error(`[start] ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
