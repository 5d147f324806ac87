import { relative } from 'node:path';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded, textResult, ToolError } from '../lib/results';
import type { Sandbox, SandboxPath } from '../../src/node/sandbox';
import { isSensitivePath } from '../../src/node/sensitive-paths';
import { writeFileAtomic } from '../lib/atomic-write';
import { formatBytes } from '../../src/node/byte-size';
import { withFileLock } from './file-lock';
import { assertReviewedBase, expectedBase } from './reviewed-base';

export const MAX_WRITE_BYTES = 20 * 1024 * 1024;

/**
 * Resolves a path to write and refuses one that reaches a sensitive file (editor tasks, git hooks,
 * MCP configs) under another name: the host asks for approval by the name it is shown, so a
 * symlinked folder must not turn `cfg/settings.json` into `.vscode/settings.json` unseen.
 */
export async function resolveWrite(sandbox: Sandbox, path: string, createParents: boolean): Promise<SandboxPath & { exists: boolean; mode?: number }> {
  const asGiven = relative(sandbox.given, sandbox.lexical(path));
  const target = await sandbox.forWrite(path, createParents);
  if (isSensitivePath(target.rel) && !isSensitivePath(asGiven)) {
    throw new ToolError(
      `"${path}" leads through a symlink to "${target.rel}", a file that needs explicit approval to change. ` + `Write it by its real name instead.`,
    );
  }
  return target;
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

export function registerWriteFile(server: McpServer, sandbox: Sandbox): void {
  server.registerTool(
    'write_file',
    {
      title: 'Write file',
      description:
        'Create a text file in the workspace or replace its whole content. Missing parent folders are created. ' +
        'The write is atomic (a reader never sees half a file) and never follows a symlink. ' +
        'To change part of an existing file, use edit_file.',
      inputSchema: {
        path: z.string().min(1).describe('File path, relative to the workspace.'),
        content: z.string().describe('The complete new content of the file.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    guarded('write_file', async ({ path, content }, extra) => {
      const bytes = Buffer.byteLength(content, 'utf8');
      if (bytes > MAX_WRITE_BYTES) {
        throw new ToolError(`content is ${formatBytes(bytes)}, over the ${formatBytes(MAX_WRITE_BYTES)} limit for one write.`);
      }
      const resolved = await resolveWrite(sandbox, path, true);
      const target = await withFileLock(resolved.real, async () => {
        // Resolved again under the lock: a write just before this one may have created the file.
        const now = await resolveWrite(sandbox, path, true);
        await assertReviewedBase(now.real, now.rel, expectedBase(extra._meta));
        await writeFileAtomic(now.real, content, now.mode, sandbox.root);
        return now;
      });
      const verb = target.exists ? 'overwritten' : 'created';
      const lines = countLines(content);
      return textResult(`${target.rel}: ${verb} (${formatBytes(bytes)}, ${lines} line${lines === 1 ? '' : 's'})`, {
        path: target.rel,
        action: verb,
        bytes,
        lines,
      });
    }),
  );
}
