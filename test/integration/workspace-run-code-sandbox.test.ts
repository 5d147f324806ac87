// run_code in its OS sandbox (bubblewrap), attacked the ways outside testing did: ancestors' secrets, the
// server killed mid-run, memory, file size, processes, CPU, the disk outside the workspace, credentials, network.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { until } from '../support/until';
import { removeTree, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';

/** VS Code's user data folder under a home, as on Linux. */
const EDITOR_USER = '.config/Code/User';

function plant(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const SECRETS = { ANTHROPIC_API_KEY: 'sk-ant-sandbox-secret', BRAVE_API_KEY: 'brave-sandbox-secret' };

interface SandboxMeta {
  available: boolean;
  kind: string;
  network: boolean;
  detail: string;
}

async function runCodeTool(w: Running): Promise<Tool> {
  const { tools } = await w.client.listTools();
  const tool = tools.find((t) => t.name === 'run_code');
  assert.ok(tool, 'run_code is listed');
  return tool;
}

function metaOf(tool: Tool): SandboxMeta {
  return (tool._meta as Record<string, SandboxMeta>)['mcpAgent/sandbox']!;
}

/** Host processes whose command line holds `marker` (the sandbox hides host pids from the code, not the reverse). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!)) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

/**
 * A folder for a fake home outside /tmp: the sandbox gives the code a private /tmp, so a home folder there
 * would be hidden anyway and the tests would prove nothing (or fail for the wrong reason). The person's
 * ~/.cache when it is not under /tmp (a CI clone and its HOME may well be), else /var/tmp.
 */
function outsideTmp(): string {
  const under = (dir: string): boolean => dir === tmpdir() || dir.startsWith(`${tmpdir()}/`);
  const candidates = [join(homedir(), '.cache'), '/var/tmp'].filter((d) => !under(d));
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true });
      return dir;
    } catch {
      // not writable here: the next one
    }
  }
  assert.fail(
    `these tests need a writable folder outside ${tmpdir()} for a fake home (tried ${[join(homedir(), '.cache'), '/var/tmp'].join(', ')}): the sandbox hides ${tmpdir()} from the code`,
  );
}

function runDirsOf(pid: number): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith(`mcp-agent-run-${pid}-`));
}

describe('run_code in the OS sandbox', () => {
  let ws: string;
  let home: string;
  let w: Running;

  before(async () => {
    ws = tempWorkspace('ws-sbx-');
    home = mkdtempSync(join(outsideTmp(), 'mcp-agent-test-home-'));
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    // A credential folder that is a symlink to where it really lives.
    mkdirSync(join(home, 'elsewhere-kube'));
    writeFileSync(join(home, 'elsewhere-kube', 'config'), 'KUBE TOKEN');
    symlinkSync(join(home, 'elsewhere-kube'), join(home, '.kube'));
    writeFileSync(join(home, '.netrc'), 'machine example.com password hunter2');
    writeFileSync(join(home, 'notes.txt'), 'readable');
    // MCP Agent's own data: its home (by default ~/.mcp-agent) and the editor's storage the extension names.
    plant(join(home, '.mcp-agent', 'oauth', 'tokens.json'), 'OAUTH REFRESH TOKEN');
    plant(join(home, '.mcp-agent', 'chats', 'other-project-0123', 'chat.jsonl'), 'OTHER PROJECT CHAT');
    plant(join(home, EDITOR_USER, 'globalStorage', 'state.vscdb'), 'EDITOR SECRET STORE');
    plant(join(home, EDITOR_USER, 'workspaceStorage', 'abc', 'mcp-agent.mcp-agent', 'images', 'pasted.txt'), 'PASTED IMAGE');
    plant(join(home, EDITOR_USER, 'settings.json'), '{}');
    w = await startWorkspace(ws, {
      ...SECRETS,
      HOME: home,
      MCP_AGENT_HOME: '',
      MCP_AGENT_EDITOR_STORAGE: [join(home, EDITOR_USER, 'globalStorage'), join(home, EDITOR_USER, 'workspaceStorage')].join(delimiter),
      MCP_AGENT_RUN_CODE_FILE_MB: '10',
      MCP_AGENT_RUN_CODE_PROCESSES: '30',
      MCP_AGENT_RUN_CODE_MAX_TIMEOUT_S: '30',
    });
  });
  after(async () => {
    await w.close();
    removeTree(ws);
    rmSync(home, { recursive: true, force: true });
  });

  test('the tool says it is sandboxed: _meta and its description', async () => {
    const tool = await runCodeTool(w);
    const meta = metaOf(tool);
    assert.equal(meta.available, true, meta.detail);
    assert.equal(meta.kind, 'bubblewrap');
    assert.equal(meta.network, false);
    assert.match(meta.detail, /bubblewrap sandbox: its own process namespace.*no network.*30 processes/);
    assert.ok(tool.description?.includes(meta.detail));
  });

  test("no process it can see holds the server's or any ancestor's secrets; it sees only its own namespace", async () => {
    const code = `
import os
seen, leaks = [], []
for p in os.listdir('/proc'):
    if not p.isdigit(): continue
    seen.append(int(p))
    for f in ('environ', 'cmdline'):
        try:
            data = open('/proc/%s/%s' % (p, f), 'rb').read()
        except OSError:
            continue
        for s in (b'sk-ant-sandbox-secret', b'brave-sandbox-secret', b'ANTHROPIC_API_KEY', b'BRAVE_API_KEY'):
            if s in data: leaks.append('%s/%s: %s' % (p, f, s.decode()))
print('me', os.getpid(), 'seen', sorted(seen))
print('leaks', leaks)
`;
    const r = await w.call('run_code', { code });
    const text = textOf(r);
    assert.ok(!r.isError, text);
    assert.match(text, /leaks \[\]/);
    const me = Number(/me (\d+)/.exec(text)?.[1]);
    assert.ok(me <= 3, `the code is pid ${me}: it should be near the start of its own namespace`);
    const seen = JSON.parse(/seen (\[.*\])/.exec(text)![1]!) as number[];
    assert.ok(seen.length <= 3, `it sees ${seen.length} processes: ${seen}`);
  });

  test('3 GiB of memory fails with MemoryError, and the server lives on', async () => {
    const r = await w.call('run_code', { code: 'x = bytearray(3 * 1024**3)\nprint("allocated")' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /MemoryError/);
    assert.doesNotMatch(textOf(r), /allocated/);
    assert.ok(!(await w.call('run_code', { code: 'print(2 + 2)' })).isError);
  });

  test('a sparse file past the size limit fails with a clear error', async () => {
    const code = 'f = open("big.bin", "wb")\nf.seek(50 * 1024**3)\nf.write(b"x")\nf.close()\nprint("wrote")';
    const r = await w.call('run_code', { code });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /File too large/);
    assert.doesNotMatch(textOf(r), /wrote/);
    rmSync(join(ws, 'big.bin'), { force: true });
  });

  test('a fork bomb is held to the process limit and the call returns', async () => {
    const code = `
import os, time
n = 0
try:
    for i in range(500):
        if os.fork() == 0:
            time.sleep(30); os._exit(0)
        n += 1
except OSError as e:
    print('stopped after', n, type(e).__name__)
`;
    const r = await w.call('run_code', { code, timeout_s: 20 });
    const m = /stopped after (\d+) BlockingIOError/.exec(textOf(r));
    assert.ok(m, textOf(r));
    assert.ok(Number(m[1]) < 30, `${m[1]} processes were started past a limit of 30`);
  });

  test('the limits cannot be raised from inside', async () => {
    const code = `
import resource
for name in ('RLIMIT_AS', 'RLIMIT_FSIZE', 'RLIMIT_CPU'):
    lim = getattr(resource, name)
    try:
        resource.setrlimit(lim, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        print(name, 'RAISED')
    except (ValueError, OSError) as e:
        print(name, 'refused')
`;
    const text = textOf(await w.call('run_code', { code }));
    assert.doesNotMatch(text, /RAISED/);
    assert.equal(text.match(/refused/g)?.length, 3, text);
  });

  test('outside the workspace nothing can be written; /tmp is private to the run', async () => {
    const outside = join(tmpdir(), `outside-${process.pid}.txt`);
    const code = `
import os
for p in (${JSON.stringify(join(home, 'planted.txt'))}, '/etc/planted', '/usr/local/planted'):
    try:
        open(p, 'w').write('x'); print('WROTE', p)
    except OSError as e:
        print('refused', p, e.strerror)
open(${JSON.stringify(outside)}, 'w').write('only in the sandbox')
open('inside.txt', 'w').write('kept')
print('notes', open(${JSON.stringify(join(home, 'notes.txt'))}).read())
`;
    const r = await w.call('run_code', { code });
    const text = textOf(r);
    assert.ok(!r.isError, text);
    assert.doesNotMatch(text, /WROTE/);
    assert.equal(text.match(/refused .* Read-only file system/g)?.length, 3, text);
    assert.equal(existsSync(outside), false, 'a write to /tmp reached the host');
    assert.equal(readFileSync(join(ws, 'inside.txt'), 'utf8'), 'kept');
    assert.match(text, /notes readable/, 'the rest of the home folder stays readable');
  });

  test('credential folders and files are hidden', async () => {
    const code = `
import os
h = ${JSON.stringify(home)}
print('ssh', os.listdir(os.path.join(h, '.ssh')))
print('netrc', repr(open(os.path.join(h, '.netrc')).read()))
print('kube', os.listdir(os.path.join(h, '.kube')), os.listdir(os.path.join(h, 'elsewhere-kube')))
`;
    const text = textOf(await w.call('run_code', { code }));
    assert.match(text, /ssh \[\]/);
    assert.match(text, /netrc ''/);
    assert.match(text, /kube \[\] \[\]/, 'a symlinked credential folder is hidden where it leads');
    assert.doesNotMatch(text, /PRIVATE KEY|hunter2|KUBE TOKEN/);
  });

  test("MCP Agent's own data is hidden: its home (OAuth tokens, other projects' chats) and the editor's storage", async () => {
    const code = `
import os
for p in ${JSON.stringify(['.mcp-agent/oauth/tokens.json', '.mcp-agent/chats/other-project-0123/chat.jsonl', `${EDITOR_USER}/globalStorage/state.vscdb`, `${EDITOR_USER}/workspaceStorage/abc/mcp-agent.mcp-agent/images/pasted.txt`])}:
    try:
        print('READ', p, open(os.path.join(${JSON.stringify(home)}, p)).read())
    except OSError as e:
        print('hidden', p, type(e).__name__)
print('agent home', os.listdir(os.path.join(${JSON.stringify(home)}, '.mcp-agent')))
print('editor', sorted(os.listdir(os.path.join(${JSON.stringify(home)}, ${JSON.stringify(EDITOR_USER)}))))
`;
    const text = textOf(await w.call('run_code', { code }));
    assert.doesNotMatch(text, /READ|OAUTH REFRESH TOKEN|OTHER PROJECT CHAT|EDITOR SECRET STORE|PASTED IMAGE/);
    assert.equal(text.match(/hidden \S+ FileNotFoundError/g)?.length, 4, text);
    assert.match(text, /agent home \[\]/);
    assert.match(text, /editor \['globalStorage', 'settings.json', 'workspaceStorage'\]/, 'the folders are there, empty');
  });

  test('the code cannot make a user namespace of its own (capabilities over its own mounts)', async () => {
    const code = `import os\ntry:\n    os.unshare(os.CLONE_NEWUSER); print('UNSHARED')\nexcept (OSError, AttributeError) as e:\n    print('refused', e)`;
    const text = textOf(await w.call('run_code', { code }));
    assert.doesNotMatch(text, /UNSHARED/);
    assert.match(text, /refused/);
  });

  test('sockets under /run (Docker, D-Bus) cannot be reached', async (t) => {
    const path = `/run/mcp-agent-test-${process.pid}.sock`;
    const server = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    t.after(() => server.close());
    const code = `import socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect(${JSON.stringify(path)}); print('CONNECTED')\nexcept OSError as e:\n    print('refused', e.strerror)`;
    const text = textOf(await w.call('run_code', { code }));
    assert.match(text, /refused/);
  });

  test('the network is off: a listener on the host loopback cannot be reached', async (t) => {
    const { server, port, connections } = await listener();
    t.after(() => server.close());
    const text = textOf(await w.call('run_code', { code: connectCode(port) }));
    assert.match(text, /refused|unreachable/i, text);
    assert.equal(connections(), 0);
  });
});

async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let n = 0;
  const server = createTcpServer((s) => {
    n++;
    s.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, connections: () => n };
}

function connectCode(port: number): string {
  return `import socket\ntry:\n    socket.create_connection(('127.0.0.1', ${port}), timeout=3).close(); print('CONNECTED')\nexcept OSError as e:\n    print('refused', e)`;
}

/** A workspace server of its own for one test, with `env`, closed and removed after it. */
async function ownServer(t: { after: (fn: () => Promise<void> | void) => void }, prefix: string, env: Record<string, string>): Promise<Running> {
  const ws = tempWorkspace(prefix);
  const w = await startWorkspace(ws, env);
  t.after(async () => {
    await w.close();
    removeTree(ws);
  });
  return w;
}

describe('run_code sandbox settings', () => {
  test('with the home folder as the workspace, its credentials stay hidden', async (t) => {
    const home = mkdtempSync(join(outsideTmp(), 'mcp-agent-test-homews-'));
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    writeFileSync(join(home, '.git-credentials'), 'https://user:token@example.com');
    const w = await startWorkspace(home, { HOME: home });
    t.after(async () => {
      await w.close();
      rmSync(home, { recursive: true, force: true });
    });
    const code =
      "import os\nprint('ssh', os.listdir('.ssh'))\nprint('cred', repr(open('.git-credentials').read()))\nopen('notes.txt', 'w').write('still writable')";
    const r = await w.call('run_code', { code });
    const text = textOf(r);
    assert.ok(!r.isError, text);
    assert.match(text, /ssh \[\]/);
    assert.match(text, /cred ''/);
    assert.doesNotMatch(text, /PRIVATE KEY|token@/);
    assert.equal(readFileSync(join(home, 'notes.txt'), 'utf8'), 'still writable');
  });

  test('MCP_AGENT_HOME outside the home folder is hidden too', async (t) => {
    const agent = mkdtempSync(join(outsideTmp(), 'mcp-agent-test-agenthome-'));
    plant(join(agent, 'oauth', 'tokens.json'), 'OAUTH REFRESH TOKEN');
    const w = await ownServer(t, 'ws-sbx-agenthome-', { MCP_AGENT_HOME: agent });
    t.after(() => rmSync(agent, { recursive: true, force: true }));
    const code = `import os\nprint('agent home', os.listdir(${JSON.stringify(agent)}))\ntry:\n    print('READ', open(${JSON.stringify(join(agent, 'oauth', 'tokens.json'))}).read())\nexcept OSError as e:\n    print('hidden', type(e).__name__)`;
    const text = textOf(await w.call('run_code', { code }));
    assert.match(text, /agent home \[\]/);
    assert.match(text, /hidden FileNotFoundError/);
    assert.doesNotMatch(text, /OAUTH REFRESH TOKEN/);
  });

  test('MCP_AGENT_RUN_CODE_NETWORK=1 turns the network on, and says so', async (t) => {
    const w = await ownServer(t, 'ws-sbx-net-', { MCP_AGENT_RUN_CODE_NETWORK: '1' });
    const { server, port, connections } = await listener();
    t.after(() => server.close());
    const meta = metaOf(await runCodeTool(w));
    assert.equal(meta.network, true);
    assert.match(meta.detail, /network on/);
    assert.match(textOf(await w.call('run_code', { code: connectCode(port) })), /CONNECTED/);
    assert.equal(connections(), 1);
  });

  test('a CPU-bound loop is stopped by the CPU limit, which says so', async (t) => {
    const w = await ownServer(t, 'ws-sbx-cpu-', { MCP_AGENT_RUN_CODE_CPU_S: '1' });
    const r = await w.call('run_code', { code: 'while True: pass', timeout_s: 20 });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^killed by SIGXCPU \(the CPU time limit\)/);
  });

  test('without a sandbox (MCP_AGENT_SANDBOX=off) code still runs, and the tool says it is unsandboxed', async (t) => {
    const w = await ownServer(t, 'ws-sbx-off-', { MCP_AGENT_SANDBOX: 'off' });
    const tool = await runCodeTool(w);
    const meta = metaOf(tool);
    assert.equal(meta.available, false);
    assert.equal(meta.kind, 'none');
    assert.match(meta.detail, /^No OS sandbox: it is turned off \(MCP_AGENT_SANDBOX=off\)/);
    assert.ok(tool.description?.includes(meta.detail));
    const r = await w.call('run_code', { code: 'print(6 * 7)' });
    assert.match(textOf(r), /42/);
    assert.equal((r.structuredContent as { sandboxed: boolean }).sandboxed, false);
  });

  test('a missing bwrap means no sandbox, said plainly', async (t) => {
    const w = await ownServer(t, 'ws-sbx-nobwrap-', { MCP_AGENT_BWRAP: '/nonexistent/bwrap' });
    const meta = metaOf(await runCodeTool(w));
    assert.equal(meta.available, false);
    assert.match(meta.detail, /bubblewrap \(bwrap\) is not installed/);
  });

  test('a bwrap that cannot make a sandbox means no sandbox, with what it said', async (t) => {
    const dir = mkdtempSync(join(outsideTmp(), 'mcp-agent-test-badbwrap-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const bwrap = join(dir, 'bwrap');
    // What bubblewrap prints where user namespaces are turned off.
    writeFileSync(bwrap, '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const w = await ownServer(t, 'ws-sbx-badbwrap-', { MCP_AGENT_BWRAP: bwrap });
    const meta = metaOf(await runCodeTool(w));
    assert.equal(meta.available, false);
    assert.match(meta.detail, /bubblewrap cannot make a sandbox here \(bwrap: No permissions to creating new namespace\)/);
    const r = await w.call('run_code', { code: 'print(6 * 7)' });
    assert.equal((r.structuredContent as { sandboxed: boolean }).sandboxed, false);
  });

  test('killing the server mid-run kills the run and its detached grandchild; its temp folder goes', async (t) => {
    const ws = tempWorkspace('ws-sbx-kill-');
    t.after(() => removeTree(ws));
    const w = await startWorkspace(ws);
    const serverPid = w.transport.pid!;
    const marker = `${process.pid}77123`;
    const code = `
import os, subprocess, time
subprocess.Popen(['sleep', '${marker}1'])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp('sleep', ['sleep', '${marker}2'])
    os._exit(0)
while True: time.sleep(0.1)
`;
    const progressed = new (await import('node:events')).EventEmitter();
    const call = w.call('run_code', { code, timeout_s: 25 }, { onprogress: () => progressed.emit('progress') });
    call.catch(() => undefined);
    await once(progressed, 'progress');
    const sleeps = (): number[] => processesWith(`${marker}`);
    await until(() => sleeps().length === 2, { what: 'the run to start its two sleeps', seen: sleeps });
    assert.equal(runDirsOf(serverPid).length, 1, 'the run has its temp folder');
    process.kill(serverPid, 'SIGKILL');
    await until(() => sleeps().length === 0, { what: 'every process of the run to die with the server', seen: sleeps });
    await w.close().catch(() => undefined);
    // The next server to start removes what the killed one left.
    const next = await startWorkspace(ws);
    t.after(() => next.close());
    assert.deepEqual(runDirsOf(serverPid), [], "the killed server's temp folder is gone");
  });
});
