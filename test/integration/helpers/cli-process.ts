// Runs dist/cli.js as a real process: with piped stdio, or on a pseudo-terminal through script(1).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../support/repo-root';

export const CLI = join(repoRoot(), 'dist', 'cli.js');

/** Where the CLIs these tests run keep their chats (never the real ~/.mcp-agent); a test may give its own. */
export const CHATS_HOME = mkdtempSync(join(tmpdir(), 'mcp-agent-home-'));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes, to check for bytes a terminal acts on. */
  raw: Buffer;
}

/** Runs dist/cli.js to its end with only PATH, HOME and `env` in its environment. */
export function cli(args: string[], env: Record<string, string | undefined>, input?: string, cwd?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, MCP_AGENT_HOME: CHATS_HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => stdout.push(d));
    child.stderr.on('data', (d: Buffer) => stderr.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const raw = Buffer.concat(stdout);
      resolve({ code, stdout: raw.toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), raw });
    });
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

export type CliRun = Run;

/** The CLI with piped stdin (not a terminal), given `input` and then end of input. */
export function runCli(args: string[], env: Record<string, string | undefined>, input = '', cwd?: string): Promise<CliRun> {
  return cli(args, env, input, cwd);
}

/** Whether script(1) from util-linux is here to give the CLI a terminal. */
export function haveScript(): boolean {
  return spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * The CLI on a pseudo-terminal (stdin a TTY), answering each prompt as it appears: `answers` are
 * [text that must have appeared since the last answer, line to type]. Typing only after the prompt is
 * shown means the CLI's own terminal settings (echo off for secrets) are in force when the text arrives.
 */
export function runCliOnTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  answers: Array<[string, string]>,
  /** A prompt that never comes would leave the CLI waiting for input: stop it after this long. */
  limitMs = 60_000,
): Promise<{ code: number | null; output: string; typedAt: number[] }> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, MCP_AGENT_HOME: CHATS_HOME, TERM: 'dumb', ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    let seenUpTo = 0;
    const typedAt: number[] = [];
    const pending = [...answers];
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString('utf8');
      const next = pending[0];
      if (!next) return;
      const at = output.indexOf(next[0], seenUpTo);
      if (at === -1) return;
      pending.shift();
      seenUpTo = at + next[0].length;
      typedAt.push(output.length);
      child.stdin.write(`${next[1]}\r`);
      if (pending.length === 0) child.stdin.end();
    });
    const timer = setTimeout(() => {
      output += `\n[killed after ${limitMs} ms still waiting for ${JSON.stringify(pending[0]?.[0])}]`;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, typedAt });
    });
  });
}

/** stderr without the lines every finished run prints (each turn's tokens, where the chat was saved). */
export function ownStderr(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/^mcp-agent: (this turn: |chat [a-z0-9]+ saved)/.test(line))
    .join('\n');
}
