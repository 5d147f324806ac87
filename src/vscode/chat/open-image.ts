import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ImageMime } from '../../common/image-types';

const EXTENSIONS: Record<ImageMime, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * Opens a tool's image (a run_code plot) in an editor tab. It is written to the extension's own
 * storage, named by its hash (the same plot opened twice is one file), never into the workspace.
 */
export async function openImage(dir: string, mimeType: ImageMime, base64: string): Promise<void> {
  const bytes = Buffer.from(base64, 'base64');
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${EXTENSIONS[mimeType]}`;
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  await writeFile(file, bytes);
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: true });
}
