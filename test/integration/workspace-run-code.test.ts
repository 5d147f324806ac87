import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { until } from '../support/until';
import { removeTree, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';

const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-test-secret',
  BRAVE_API_KEY: 'brave-secret',
  GITHUB_TOKEN: 'ghp_secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
};

/** Alive means present in /proc and not a zombie (a zombie is dead, only not yet reaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return !/^[ZX]$/.test(state);
  } catch {
    return false;
  }
}

/**
 * Python that starts a child, a setsid'd child with an empty environment and a setsid'd double-forked
 * grandchild, each a `sleep` whose argument starts with `nonce` so the test finds them from outside (in the
 * sandbox the pids the code sees are its namespace's, not the host's), and writes its own pids to pids.txt.
 */
function spawnFamily(nonce: string): string {
  return `
import os, subprocess, sys, time
pids = [os.getpid()]
pids.append(subprocess.Popen(['sleep', '${nonce}1']).pid)
pids.append(subprocess.Popen(['sleep', '${nonce}2'], env={}, start_new_session=True).pid)
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.write(w, str(os.getpid()).encode())
        os.execvp('sleep', ['sleep', '${nonce}3'])
    os._exit(0)
pids.append(int(os.read(r, 32)))
open('pids.txt', 'w').write(' '.join(map(str, pids)))
print('started', flush=True)
`;
}

/** Host pids of the family's sleeps still alive. */
function familyAlive(nonce: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('sleep') && argv[1]?.startsWith(nonce) && alive(Number(name))) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

let nonces = 0;
function nonce(): string {
  return `${process.pid}${++nonces}0`;
}

for (const mode of ['sandbox', 'no sandbox'] as const) {
  const sandboxed = mode === 'sandbox';
  let ws: string;
  let w: Running;

  /** The family is gone: none of its sleeps (found from outside) and, without a sandbox, none of its own pids. */
  function assertFamilyGone(tag: string, why: string): void {
    assert.deepEqual(familyAlive(tag), [], `processes of the run survived ${why}`);
    if (!sandboxed) for (const pid of familyPids()) assert.equal(alive(pid), false, `pid ${pid} survived ${why}`);
  }

  function familyPids(): number[] {
    return readFileSync(join(ws, 'pids.txt'), 'utf8').trim().split(' ').map(Number);
  }

  describe(`run_code (${mode})`, () => {
    before(async () => {
      ws = tempWorkspace('ws-run-');
      w = await startWorkspace(ws, { ...SECRETS, MCP_AGENT_RUN_CODE_MAX_TIMEOUT_S: '30', ...(sandboxed ? {} : { MCP_AGENT_SANDBOX: 'off' }) });
    });
    after(async () => {
      await w.close();
      removeTree(ws);
    });

    test('runs in the workspace and reports exit code and output', async () => {
      const r = await w.call('run_code', { code: 'import os\nprint(os.getcwd())\nprint("to stderr", file=__import__("sys").stderr)' });
      assert.ok(!r.isError, textOf(r));
      const text = textOf(r);
      assert.match(text, /^exit code 0 in \d+\.\d\d s\n\[stdout\]\n/);
      assert.ok(text.includes(`${ws}\n`));
      assert.match(text, /\[stderr\]\nto stderr/);
      assert.equal((r.structuredContent as { exit_code: number }).exit_code, 0);
    });

    test('a failing script is an error result with its traceback', async () => {
      const r = await w.call('run_code', { code: 'import sys\nraise ValueError("boom")' });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /^exit code 1 .*[\s\S]*ValueError: boom/);
    });

    test('the environment holds no API key or token of the host', async () => {
      const r = await w.call('run_code', {
        code: 'import os, json\nprint(json.dumps(dict(os.environ)))',
      });
      const env = JSON.parse(textOf(r).split('\n')[2] ?? 'null') as Record<string, string>;
      for (const [k, v] of Object.entries(SECRETS)) {
        assert.equal(env[k], undefined, k);
        assert.ok(!Object.values(env).includes(v), `${k}'s value leaked`);
      }
      assert.equal(env.MPLBACKEND, 'Agg');
      assert.equal(env.PYTHONUNBUFFERED, '1');
      assert.ok(env.MCP_AGENT_FIGURES_DIR);
      assert.deepEqual(
        Object.keys(env).filter((k) => /KEY|TOKEN|SECRET/.test(k)),
        ['MCP_AGENT_RUN_TOKEN'],
      );
    });

    test('an endless loop is killed at the timeout with its children, detached grandchildren included', async () => {
      const tag = nonce();
      // 4 s rather than less: on a loaded machine Python alone can take over a second to start the family.
      const r = await w.call('run_code', { code: `${spawnFamily(tag)}\nwhile True: pass`, timeout_s: 4 });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /^timed out after 4 s: the process and its children were killed/);
      assert.match(textOf(r), /started/);
      assert.equal(familyPids().length, 4);
      assertFamilyGone(tag, 'the timeout');
    });

    test('processes left running after a normal exit are killed too', async () => {
      const tag = nonce();
      const r = await w.call('run_code', { code: spawnFamily(tag) });
      assert.ok(!r.isError, textOf(r));
      assertFamilyGone(tag, 'the end of the run');
    });

    test('cancelling the call kills the run', async () => {
      const controller = new AbortController();
      const progressed = new (await import('node:events')).EventEmitter();
      const tag = nonce();
      const call = w.call(
        'run_code',
        { code: `${spawnFamily(tag)}\nimport time\nwhile True: time.sleep(0.05)`, timeout_s: 25 },
        { signal: controller.signal, onprogress: () => progressed.emit('progress') },
      );
      // The run sends a progress notice each second; on a loaded machine the family may take a few of them to appear.
      for (let notices = 0; familyAlive(tag).length < 3 && notices < 20; notices++) await once(progressed, 'progress');
      assert.ok(existsSync(join(ws, 'pids.txt')));
      assert.equal(familyAlive(tag).length, 3, 'the family is running');
      controller.abort();
      await assert.rejects(call, /AbortError|aborted|cancel/i);
      // The kill happens in the server after the cancel notice; processes dying announce nothing here, so this polls.
      await until(() => familyAlive(tag).length === 0, { what: 'the family to be killed after the cancel', seen: () => familyAlive(tag) });
      assertFamilyGone(tag, 'the cancel');
    });

    test('huge output is capped with a note, and the server stays small', async () => {
      const r = await w.call('run_code', { code: 'print("x" * 10**9)\nprint("THE END")', timeout_s: 30 });
      const text = textOf(r);
      assert.ok(!r.isError, text.slice(0, 300).replace(/x{100,}/g, '<x…>'));
      assert.ok(text.length < 150_000, `answer is ${text.length} chars`);
      const note = /\[\.\.\. 954 MiB cut: showing the first 64 KiB and the last 36 KiB of 954 MiB \.\.\.\]/;
      assert.ok(note.test(text), text.replace(/x{100,}/g, '<x…>'));
      assert.ok(text.endsWith('THE END\n'), text.slice(-100));
      assert.equal((r.structuredContent as { stdout_bytes: number }).stdout_bytes, 10 ** 9 + 9);
    });

    test('timeouts above the maximum are lowered and say so', async () => {
      const r = await w.call('run_code', { code: 'print(1)', timeout_s: 500 });
      assert.match(textOf(r), /timeout_s 500 lowered to the maximum 30/);
    });

    test('progress notifications arrive while it runs', async () => {
      let notes = 0;
      const r = await w.call('run_code', { code: 'import time\ntime.sleep(2.2)' }, { onprogress: () => notes++ });
      assert.ok(!r.isError);
      assert.ok(notes >= 1, `got ${notes} progress notifications`);
    });

    test('PNGs in MCP_AGENT_FIGURES_DIR come back as images', async () => {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
      const r = await w.call('run_code', {
        code: `import base64, os\nopen(os.path.join(os.environ["MCP_AGENT_FIGURES_DIR"], "plot.png"), "wb").write(base64.b64decode("${png}"))`,
      });
      const images = r.content.filter((c) => c.type === 'image');
      assert.equal(images.length, 1);
      assert.match(textOf(r), /\[1 figure attached\]/);
    });

    test('matplotlib show() and figures left open become images (with a stand-in matplotlib)', async () => {
      mkdirSync(join(ws, 'matplotlib'));
      writeFileSync(join(ws, 'matplotlib', '__init__.py'), '');
      writeFileSync(
        join(ws, 'matplotlib', 'pyplot.py'),
        `import base64
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
_figs = {}
_cur = [None]
class Figure:
    def savefig(self, fname, **kw):
        open(fname, "wb").write(PNG)
def figure(num=None):
    num = num or len(_figs) + 1
    _figs.setdefault(num, Figure())
    _cur[0] = _figs[num]
    return _cur[0]
def gcf(): return _cur[0] or figure()
def get_fignums(): return sorted(_figs)
def close(which="all"): _figs.clear(); _cur[0] = None
def plot(*a): gcf()
def show(): raise RuntimeError("the real show must have been replaced")
def savefig(fname, **kw): gcf().savefig(fname, **kw)
  `,
      );
      const r = await w.call('run_code', {
        code: 'import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\nplt.figure()\nplt.plot([3])\nplt.savefig("out.png")\nplt.figure()\nplt.plot([4])',
      });
      assert.ok(!r.isError, textOf(r));
      // show() saved figure 1; savefig copied out.png; the figure left open at exit was saved.
      assert.equal(r.content.filter((c) => c.type === 'image').length, 3, textOf(r));
      assert.ok(existsSync(join(ws, 'out.png')));
      removeTree(join(ws, 'matplotlib'));
    });
  });
}
