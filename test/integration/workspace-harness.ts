import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
export { repoRoot } from '../support/repo-root';
import { repoRoot } from '../support/repo-root';
import { scaled } from '../support/until';

export const serverPath = (): string => join(repoRoot(), 'dist', 'servers', 'workspace.js');

export function tempWorkspace(prefix = 'ws-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export interface Running {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  call: (name: string, args: Record<string, unknown>, opts?: { signal?: AbortSignal; onprogress?: () => void }) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

export async function startWorkspace(dir: string, env: Record<string, string> = {}): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverPath(), dir],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'workspace-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => err,
    call: async (name, args, opts) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        signal: opts?.signal,
        onprogress: opts?.onprogress,
        timeout: scaled(120_000),
      })) as CallToolResult,
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/**
 * Creates many files in one Python process. Files with the same content are hard links to the
 * first one: on some file systems (this sandbox's included) creating an inode costs a millisecond,
 * a link a tenth of that, and a directory entry is a directory entry to a listing.
 */
export function makeFiles(dir: string, files: Array<[string, string]>): void {
  const script = [
    'import json,os,sys',
    'd=sys.argv[1]; first={}',
    'for n,c in json.load(sys.stdin):',
    '  p=os.path.join(d,n)',
    '  try:',
    '    os.link(first[c],p); continue',
    // No file yet, or its link count is full (65,000 on ext4): start a new one.
    '  except (KeyError, OSError): pass',
    '  open(p,"w").write(c); first[c]=p',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script, dir], { input: JSON.stringify(files), maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`makeFiles failed: ${r.stderr?.toString()}`);
}

/** `rm -rf` is many times faster than fs.rmSync for 200,000 entries here. */
export function removeTree(dir: string): void {
  spawnSync('rm', ['-rf', dir]);
}
