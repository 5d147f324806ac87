// A bundled server over streamable HTTP, as a person starts it: `node dist/servers/<name>.js <workspace> --http 0`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/** Starts it on a free port and resolves with its /mcp URL once it says where it serves; `stop()` ends it. */
export async function startHttpServer(root, name, workspace, { timeoutMs = 30_000 } = {}) {
  const bundle = join(root, 'dist', 'servers', `${name}.js`);
  const child = spawn(process.execPath, [bundle, workspace, '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`did not say where it serves within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (err) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name} server over HTTP: ${err.message}\n${stderr}`));
    };
    child.on('error', fail);
    child.on('exit', (code, signal) => fail(new Error(`exited (${code ?? signal}) before serving`)));
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(m[1]);
      }
    });
  });
  return {
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      // It disposes what it holds and exits on SIGTERM; one that does not is killed so the step never hangs.
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
