/** Runs dist/cli.js as a real process: with piped stdio, or on a pseudo-terminal through script(1). */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../support/repo-root';

export const CLI = join(repoRoot(), 'dist', 'cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI with piped stdin (not a terminal), given `input` and then end of input. */
export function runCli(args: string[], env: Record<string, string | undefined>, input = '', cwd?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
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
export function runCliOnTerminal(args: string[], env: Record<string, string | undefined>, answers: Array<[string, string]>): Promise<{ code: number | null; output: string; typedAt: number[] }> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'dumb', ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
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
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, typedAt }));
  });
}
