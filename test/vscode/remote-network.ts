// A browser on another machine than code-server, made on this one: Chromium runs in a Linux network namespace of its
// own, joined to this host by a veth pair. The namespace's 127.0.0.1 is its own, where nothing listens, so the
// extension host's loopback listeners are out of its reach, as they are for a person whose browser is on a laptop and
// whose code-server runs on a server. All it reaches is what listens on this host's end of the pair, which no other
// machine can reach: code-server is bound there and only there.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireChromium } from '../../scripts/chromium.mjs';

/** Namespaces and links are named `<prefix><pid>`, so a run can tell which ones a dead run left behind. */
const PREFIX = 'mcpa';
/** 10.231.0.0/16 cut into /30 blocks (16,384): one per run, from its pid, so runs side by side do not clash. */
const BLOCKS = 16_384;
const CAP_NET_ADMIN = 12n;
const CAP_SYS_ADMIN = 21n;

export interface RemoteNetwork {
  /** The network namespace the browser runs in. */
  readonly name: string;
  /** This host's end of the veth pair: bind what the browser may reach here. */
  readonly hostAddress: string;
  /** The namespace's end: where the browser's requests come from. */
  readonly browserAddress: string;
  /** An executable that runs Chromium, with the arguments it is given, inside the namespace. */
  readonly chromium: string;
  /** Runs a program inside the namespace: what the browser's machine sees. */
  run(command: string, args: string[]): SpawnSyncReturns<string>;
  /** Removes the namespace (and so the veth pair) and the wrapper. Idempotent. */
  close(): void;
}

/**
 * Why a browser cannot be put on "another machine" here, when installing nothing would change that; undefined when
 * it can. A missing `ip` is not such a reason: `npm test` installs iproute2, and openRemoteNetwork says so.
 */
export function remoteNetworkUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces are Linux's, and this is ${process.platform}`;
  const uid = process.getuid?.();
  if (uid !== 0) return `making a network namespace (ip netns add) and a veth pair needs root, and this test runs as uid ${uid}`;
  const status = readFileSync('/proc/self/status', 'utf8');
  const effective = BigInt(`0x${/^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0'}`);
  const missing = [
    ['CAP_SYS_ADMIN', CAP_SYS_ADMIN],
    ['CAP_NET_ADMIN', CAP_NET_ADMIN],
  ].filter(([, bit]) => !((effective >> (bit as bigint)) & 1n));
  if (missing.length) return `root here lacks ${missing.map(([name]) => name).join(' and ')} (a container that drops them), which ip netns add needs`;
  return undefined;
}

/** Where iproute2's `ip` is, or an Error that names the install. */
function ipCommand(): string {
  const found = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((p) => existsSync(p));
  if (found) return found;
  throw new Error(
    "The remote-browser test needs iproute2's ip, and there is none. `npm test` installs it (scripts/ensure-vscode.mjs); by hand: apt-get install -y iproute2",
  );
}

function ipRun(ip: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(ip, args, { encoding: 'utf8' });
}

function ipOrThrow(ip: string, args: string[]): string {
  const r = ipRun(ip, args);
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')} failed (exit ${r.status ?? r.signal}): ${`${r.stderr}${r.stdout}`.trim()}`);
  return r.stdout;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A run killed before its teardown leaves its namespace (and veth pair) behind, holding its block: remove those. */
function reapAbandoned(ip: string): void {
  const owner = new RegExp(`^${PREFIX}(\\d+)[hn]?(?:@\\S+)?$`);
  const dead = (name: string) => {
    const m = owner.exec(name);
    return m !== null && Number(m[1]) !== process.pid && !alive(Number(m[1]));
  };
  for (const line of ipRun(ip, ['netns', 'list']).stdout.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (dead(name)) ipRun(ip, ['netns', 'del', name]);
  }
  // A pair whose namespace end was never moved (killed mid-setup) is still here, both ends.
  for (const line of ipRun(ip, ['-o', 'link', 'show']).stdout.split('\n')) {
    const name = line.split(':')[1]?.trim() ?? '';
    if (dead(name)) ipRun(ip, ['link', 'del', name.split('@')[0] ?? name]);
  }
}

/** The run's /30 in 10.231.0.0/16: from its pid, moved on past any block an address of this host already sits in. */
function freeBlock(ip: string): { host: string; browser: string } {
  const taken = new Set<number>();
  for (const m of ipRun(ip, ['-o', '-4', 'addr', 'show']).stdout.matchAll(/inet 10\.231\.(\d+)\.(\d+)/g)) {
    taken.add(Number(m[1]) * 64 + Math.floor(Number(m[2]) / 4));
  }
  for (let i = 0; i < BLOCKS; i++) {
    const block = (process.pid + i) % BLOCKS;
    if (taken.has(block)) continue;
    const prefix = `10.231.${Math.floor(block / 64)}.`;
    const base = (block % 64) * 4;
    return { host: `${prefix}${base + 1}`, browser: `${prefix}${base + 2}` };
  }
  throw new Error('every /30 of 10.231.0.0/16 is in use on this host');
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Makes the namespace and its veth pair. Call only when remoteNetworkUnavailable() found no reason against it;
 * close() it in a finally: a process exit that skips that still removes it.
 */
export function openRemoteNetwork(): RemoteNetwork {
  const ip = ipCommand();
  const browser = requireChromium();
  reapAbandoned(ip);
  const name = `${PREFIX}${process.pid}`;
  const hostEnd = `${name}h`;
  const nsEnd = `${name}n`;
  const addresses = freeBlock(ip);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-remote-'));
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    process.off('exit', close);
    ipRun(ip, ['netns', 'del', name]);
    ipRun(ip, ['link', 'del', hostEnd]); // only there if setup stopped before the pair's end moved
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', close);
  try {
    ipOrThrow(ip, ['netns', 'add', name]);
    ipOrThrow(ip, ['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nsEnd]);
    ipOrThrow(ip, ['link', 'set', nsEnd, 'netns', name]);
    ipOrThrow(ip, ['addr', 'add', `${addresses.host}/30`, 'dev', hostEnd]);
    ipOrThrow(ip, ['link', 'set', hostEnd, 'up']);
    ipOrThrow(ip, ['netns', 'exec', name, ip, 'addr', 'add', `${addresses.browser}/30`, 'dev', nsEnd]);
    ipOrThrow(ip, ['netns', 'exec', name, ip, 'link', 'set', nsEnd, 'up']);
    // Up, so the browser's own 127.0.0.1 refuses at once, as a laptop's does, instead of having no route at all.
    ipOrThrow(ip, ['netns', 'exec', name, ip, 'link', 'set', 'lo', 'up']);
  } catch (err) {
    close();
    throw err;
  }
  // `ip netns exec` execs in place (no fork): Playwright's pipe to the browser (inherited fds 3 and 4) and the pid it
  // waits on stay the browser's.
  const chromium = join(dir, 'chromium-in-netns');
  writeFileSync(chromium, `#!/bin/sh\nexec ${quote(ip)} netns exec ${quote(name)} ${quote(browser)} "$@"\n`);
  chmodSync(chromium, 0o755);
  return {
    name,
    hostAddress: addresses.host,
    browserAddress: addresses.browser,
    chromium,
    run: (command, args) => spawnSync(ip, ['netns', 'exec', name, command, ...args], { encoding: 'utf8' }),
    close,
  };
}
