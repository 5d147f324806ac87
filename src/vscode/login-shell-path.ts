import { execFile } from 'node:child_process';

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
  resolved ??= readLoginShellPath(log);
  return resolved;
}

function readLoginShellPath(log?: (line: string) => void): Promise<string | undefined> {
  const shell = process.env.SHELL;
  if (process.platform === 'win32' || !shell) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(
      shell,
      ['-ilc', `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`],
      // stdin closed, so an rc file that reads input gets EOF instead of waiting; a timeout for the rest.
      { timeout: SHELL_TIMEOUT_MS, encoding: 'utf8', maxBuffer: 1024 * 1024, env: process.env, windowsHide: true },
      (err, stdout) => {
        const match = new RegExp(`${MARK}(.*?)${MARK}`, 's').exec(stdout ?? '');
        const path = match?.[1]?.trim();
        if (!path) {
          log?.(`could not read the login shell's PATH from ${shell}${err ? `: ${err.message}` : ''}; servers use VS Code's PATH`);
          return resolve(undefined);
        }
        resolve(path);
      },
    ).stdin?.end();
  });
}
