import * as vscode from 'vscode';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { formatBytes } from '../../node/byte-size';
import { looksBinary } from '../../node/file-kind';
import type { Mention } from '../../common/requests';
import { PROBLEMS_REF } from '../../core/chat/attachments';

/** Past this a file is refused at once (a smaller one over the 200 KB reading cap is attached cut). */
const MAX_MENTION_BYTES = 1024 * 1024;
const MAX_ITEMS = 30;
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/dist/**,**/out/**,**/.mcp-agent/sessions/**}';

/**
 * What `@query` offers: the editor's selection and the Problems list when they match, then
 * workspace files and folders whose path contains the query (name matches first). Files that
 * cannot be attached (binary, too big) are offered with why, so the person learns it before sending.
 */
export async function completeMentions(workspace: string, query: string): Promise<Mention[]> {
  const q = query.toLowerCase();
  const items: Mention[] = [];
  const selection = selectionMention(workspace);
  if (selection && (q === '' || 'selection'.startsWith(q) || selection.label.toLowerCase().includes(q))) items.push(selection);
  if (q === '' || 'problems'.startsWith(q)) items.push(problemsMention());
  // Files named like the query, and files in folders named like it (so the folders can be offered).
  const glob = globEscape(query);
  const files = await vscode.workspace.findFiles(q ? `{**/*${glob}*,**/*${glob}*/**}` : '**/*', EXCLUDE, 400);
  const rels = files.map((f) => vscode.workspace.asRelativePath(f, false).replace(/\\/g, '/'));
  const folders = [...new Set(rels.flatMap((r) => ancestors(r)))].filter((d) => d.toLowerCase().includes(q));
  const rank = (path: string): number => {
    const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    return (name.startsWith(q) ? 0 : name.includes(q) ? 1 : 2) * 1000 + path.length;
  };
  const pickedFiles = rels
    .filter((r) => r.toLowerCase().includes(q))
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, MAX_ITEMS);
  const fileItems = await Promise.all(pickedFiles.map((rel) => fileMention(workspace, rel)));
  const folderItems = folders
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, 8)
    .map((rel): Mention => ({ kind: 'folder', label: `${rel}/`, detail: 'folder: its list of files', ref: rel }));
  return [...items, ...fileItems, ...folderItems].slice(0, MAX_ITEMS + 10);
}

function selectionMention(workspace: string): Mention | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty || editor.document.uri.scheme !== 'file') return undefined;
  const rel = vscode.workspace.asRelativePath(editor.document.uri, false).replace(/\\/g, '/');
  if (rel === editor.document.uri.fsPath || !editor.document.uri.fsPath.startsWith(workspace)) return undefined;
  const { start, end } = editor.selection;
  const last = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
  return {
    kind: 'selection',
    label: `${rel.slice(rel.lastIndexOf('/') + 1)}:${start.line + 1}-${last}`,
    detail: 'the selection in the editor',
    ref: `${rel}#L${start.line + 1}-${last}`,
  };
}

function problemsMention(): Mention {
  const count = vscode.languages.getDiagnostics().reduce((n, [, list]) => n + list.length, 0);
  return { kind: 'problems', label: 'Problems', detail: count === 0 ? 'none right now' : `${count} in the Problems list`, ref: PROBLEMS_REF };
}

async function fileMention(workspace: string, rel: string): Promise<Mention> {
  const item: Mention = { kind: 'file', label: rel.slice(rel.lastIndexOf('/') + 1), detail: rel, ref: rel };
  const refused = await whyNot(join(workspace, rel));
  return refused ? { ...item, refused } : item;
}

/** Binary or too big: the reason, read from the file's size and first bytes. */
async function whyNot(file: string): Promise<string | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size > MAX_MENTION_BYTES) return `too big to attach (${formatBytes(size)}; the limit is ${formatBytes(MAX_MENTION_BYTES)}): ask the agent to read it`;
      const head = Buffer.alloc(Math.min(size, 8192));
      await handle.read(head, 0, head.length, 0);
      return looksBinary(head) ? 'a binary file: it cannot be attached as text' : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return 'it cannot be read';
  }
}

function ancestors(rel: string): string[] {
  const out: string[] = [];
  for (let d = dirname(rel); d !== '.' && d !== '/' && d !== ''; d = dirname(d)) out.push(d.replace(/\\/g, '/'));
  return out;
}

/** A query is matched literally: glob characters in it are escaped. */
function globEscape(s: string): string {
  return s.replace(/[\\*?[\]{}()!]/g, (c) => `[${c}]`);
}

/** The Problems list as the model reads it: `path:line:col severity: message (source)`, at most 200. */
export function problemsText(): string {
  const severity = ['error', 'warning', 'info', 'hint'];
  const lines = vscode.languages
    .getDiagnostics()
    .flatMap(([uri, list]) =>
      list.map(
        (d) =>
          `${vscode.workspace.asRelativePath(uri, false)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity[d.severity] ?? 'info'}: ${d.message.replace(/\s+/g, ' ')}${d.source ? ` (${d.source})` : ''}`,
      ),
    );
  if (lines.length === 0) return 'The Problems list is empty.';
  return lines.length > 200 ? `${lines.slice(0, 200).join('\n')}\n[… ${lines.length - 200} more]` : lines.join('\n');
}
