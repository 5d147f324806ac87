import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../support/repo-root';

export const CLI = join(repoRoot(), 'dist', 'cli.js');

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
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
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
