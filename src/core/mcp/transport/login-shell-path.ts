import { spawn } from 'node:child_process';

/** An interactive login shell that takes longer than this (a slow rc file, a prompt waiting for input) is given up on. */
const SHELL_TIMEOUT_MS = 5000;
/** Marks the PATH in the shell's output: rc files may print greetings or escape codes around it. */
const MARK = '__MCP_AGENT_PATH__';

let resolved: Promise<string | undefined> | undefined;

/**
 * The PATH of the person's login shell, resolved once per window. VS Code launched from a dock or
 * a desktop menu inherits the desktop session's PATH, without what nvm, asdf or Homebrew add in
 * the shell's rc files, so `npx` or `uvx` in an mcp.json would not be found. Only the PATH is taken
 * from the shell; servers themselves are spawned without one. Undefined on Windows, when $SHELL is
 * unset, or when the shell fails or times out (the host's own PATH is used then).
 */
export function loginShellPath(log?: (line: string) => void): Promise<string | undefined> {
  resolved ??= readLoginShellPath(process.env.SHELL, { log });
  return resolved;
}

/** `$SHELL -ilc 'printf ... "$PATH"'`, its whole process group ended if it runs past the timeout. */
export function readLoginShellPath(
  shell: string | undefined,
  opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<string | undefined> {
  if (process.platform === 'win32' || !shell) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    const finish = (why?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const path = new RegExp(`${MARK}(.*?)${MARK}`, 's').exec(out)?.[1]?.trim();
      if (!path) opts.log?.(`could not read the login shell's PATH from ${shell}${why ? `: ${why}` : ''}; servers use VS Code's PATH`);
      resolve(path || undefined);
    };
    // Its own process group, so a timeout also ends whatever an rc file started; stdin closed, so one that reads input gets EOF.
    const child = spawn(shell, ['-ilc', `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`], {
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
      finish(`no answer within ${opts.timeoutMs ?? SHELL_TIMEOUT_MS} ms`);
    }, opts.timeoutMs ?? SHELL_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      // The PATH is all that is wanted: once it is complete, the rest of the shell's exit does not matter.
      if (out.split(MARK).length >= 3) finish();
    });
    child.on('error', (err) => finish(err.message));
    child.on('exit', (code) => finish(code ? `it exited with code ${code}` : undefined));
  });
}
