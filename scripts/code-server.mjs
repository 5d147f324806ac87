// Starts and stops code-server (the real VS Code server and workbench) for the test rig and `npm start`.
// Each instance runs in its own process group with its own HOME and XDG folders; stopping kills the
// whole group, since code-server's file watcher otherwise outlives it. Types: code-server.d.mts.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeBinary } from './node-binary.mjs';

/**
 * The VS Code versions the real-VS-Code tests run on: the oldest that package.json's engines.vscode claims, and
 * today's. Each is code-server from npm (the real VS Code server and workbench); `node` is the Node major it is built
 * for and runs on (today's needs a Node 24 from the npm registry, scripts/node-binary.mjs). MCP_AGENT_VSCODE names
 * the one a test process starts (default: oldest); scripts/test-vscode.mjs sets it per tier.
 */
export const VSCODE_TARGETS = {
  oldest: { name: 'oldest', codeServer: '4.100.3', vscode: '1.100.3', node: undefined, payloadArgs: [] },
  // A built workbench of 1.139 reads the URL's dev payload (extensionDevelopmentPath, extensionTestsPath) only with
  // its smoke-test driver on; code-server passes that flag through to VS Code with --vscode-option.
  today: { name: 'today', codeServer: '4.139.1', vscode: '1.139.1', node: '24.22.3', payloadArgs: ['--vscode-option', 'enable-smoke-test-driver'] },
};

/** @param {string} [name] @returns {import('./code-server.d.mts').VscodeTarget} */
export function vscodeTarget(name = process.env.MCP_AGENT_VSCODE || 'oldest') {
  const target = VSCODE_TARGETS[name];
  if (!target) throw new Error(`MCP_AGENT_VSCODE=${name}: expected one of ${Object.keys(VSCODE_TARGETS).join(', ')}`);
  return target;
}

export const CODE_SERVER_VERSION = VSCODE_TARGETS.oldest.codeServer;

/** The install folder of a target's code-server (MCP_AGENT_CODE_SERVER_DIR overrides the oldest's). */
export function codeServerDir(target = vscodeTarget()) {
  if (target.name === 'oldest' && process.env.MCP_AGENT_CODE_SERVER_DIR) return process.env.MCP_AGENT_CODE_SERVER_DIR;
  return join(mcpAgentCache(), `code-server-${target.codeServer}`);
}

/** ~/.cache/mcp-agent (or under XDG_CACHE_HOME): what the tests install once per machine. */
export function mcpAgentCache() {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcp-agent');
}

export function codeServerEntry(dir = codeServerDir()) {
  return join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** The Node a target's code-server runs on: its own (installed by ensure-vscode) or this process's. */
export function codeServerNode(target = vscodeTarget()) {
  return target.node ? nodeBinary(target.node) : process.execPath;
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none', // else a welcome webview opens next to ours
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false, // the gallery (open-vsx.org) is unreachable offline
  'extensions.autoUpdate': false,
};

/** Running servers by process group id -> their stop(); all are stopped if this process is interrupted. */
const liveGroups = new Map();
let handlersInstalled = false;

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const pgid of liveGroups.keys()) killGroup(pgid, 'SIGKILL');
  });
  let interrupted = false;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.on(signal, () => {
      if (interrupted) process.exit(code); // a second Ctrl+C: the exit handler kills what is left
      interrupted = true;
      Promise.all([...liveGroups.values()].map((stop) => stop())).finally(() => process.exit(code));
    });
  }
}

/**
 * A runner that starts us (scripts/test-vscode.mjs) sets MCP_AGENT_RIG_PIDS_DIR and kills whatever groups are
 * still listed there when it ends, so even a test process killed with SIGKILL leaves no code-server behind.
 */
function recordGroup(pgid) {
  const dir = process.env.MCP_AGENT_RIG_PIDS_DIR;
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, String(pgid));
  writeFileSync(file, `${pgid}\n`);
  return file;
}

/** The parent's environment minus what would make code-server think it runs inside another VS Code. */
function baseEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key.startsWith('ELECTRON_')) delete env[key];
  }
  return env;
}

/**
 * @param {import('./code-server.d.mts').CodeServerOptions} [opts]
 * @returns {Promise<import('./code-server.d.mts').CodeServer>}
 */
export async function startCodeServer(opts = {}) {
  const ownRoot = !opts.root;
  const root = opts.root ?? mkdtempSync(join(tmpdir(), 'mcp-agent-vscode-'));
  const userDataDir = opts.userDataDir ?? join(root, 'user-data');
  const extensionsDir = opts.extensionsDir ?? join(root, 'extensions');
  const home = join(root, 'home');
  const logFile = opts.logFile ?? join(root, 'code-server.log');
  for (const d of [userDataDir, extensionsDir, home, join(userDataDir, 'User')]) mkdirSync(d, { recursive: true });
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  if (!opts.keepExistingSettings || !existsSync(settingsFile)) {
    writeFileSync(settingsFile, JSON.stringify({ ...DEFAULT_SETTINGS, ...opts.settings }, null, 2));
  }

  const target = vscodeTarget(opts.target);
  const node = opts.entry ? process.execPath : codeServerNode(target);
  const args = [
    opts.entry ?? codeServerEntry(codeServerDir(target)),
    '--bind-addr',
    `${opts.host ?? '127.0.0.1'}:${opts.port ?? 0}`,
    '--auth',
    'none',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--ignore-last-opened',
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    ...(opts.devPayload ? target.payloadArgs : []),
    ...(opts.extraArgs ?? []),
  ];
  const env = {
    ...baseEnv(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ...opts.env,
  };
  for (const vsix of opts.installExtensions ?? []) {
    const r = spawnSync(node, [args[0], '--install-extension', vsix, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir], {
      env,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`installing ${vsix} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  }
  installExitHandlers();
  const child = spawn(node, args, { detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error('code-server did not start');
  const pidFile = recordGroup(pgid);
  const log = createWriteStream(logFile, { flags: 'a' });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));

  // code-server prints the port it bound (we pass 0 by default, so the OS picks a free one).
  let output = '';
  let found = false;
  const listening = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      const text = chunk.toString();
      log.write(text);
      opts.onOutput?.(text);
      if (found) return;
      output += text;
      const m = /HTTP server listening on (https?:\/\/\S+?)\/?\s/.exec(output);
      if (m) {
        found = true;
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => reject(new Error(`code-server exited (${code}) before listening:\n${output.slice(-2000)}`)));
  });

  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      killGroup(pgid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(pgid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      killGroup(pgid, 'SIGKILL'); // stragglers left in the group (the file watcher)
      liveGroups.delete(pgid);
      if (pidFile) rmSync(pidFile, { force: true });
      await new Promise((resolve) => log.end(resolve));
      if (ownRoot && !opts.keepRoot) rmSync(root, { recursive: true, force: true });
    })();
    return stopping;
  };

  liveGroups.set(pgid, stop);

  try {
    const url = (await listening).replace(/\/$/, '');
    const health = await fetch(`${url}/healthz`);
    if (!health.ok) throw new Error(`code-server /healthz answered ${health.status}`);
    return { url, port: Number(new URL(url).port), pid: pgid, root, userDataDir, extensionsDir, logFile, exited, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The workbench URL that opens `folder` with the given dev-mode payload (extensionDevelopmentPath,
 * extensionTestsPath); paths are made `vscode-remote://` URIs on this server, as the web workbench wants.
 * @param {string} serverUrl @param {string} folder
 * @param {{ extensionDevelopmentPath?: string, extensionTestsPath?: string }} [dev]
 */
export function workbenchUrl(serverUrl, folder, dev = {}) {
  const authority = new URL(serverUrl).host;
  const remote = (p) => `vscode-remote://${authority}${p.split('/').map(encodeURIComponent).join('/')}`;
  const payload = [];
  if (dev.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(dev.extensionDevelopmentPath)]);
  if (dev.extensionTestsPath) payload.push(['extensionTestsPath', remote(dev.extensionTestsPath)]);
  const query = new URLSearchParams({ folder });
  if (payload.length) query.set('payload', JSON.stringify(payload));
  return `${serverUrl}/?${query}`;
}
