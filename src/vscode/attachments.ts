import { open, readdir, stat } from 'node:fs/promises';
import { looksBinary } from '../common/file-kind';
import { Sandbox } from '../common/sandbox';

const MAX_ATTACHMENT_BYTES = 200 * 1024;
/** A folder attaches as its list of entries, at most this many. */
const MAX_FOLDER_ENTRIES = 200;

/** The reference `@problems` attaches: the Problems list as it is when the message is sent. */
export const PROBLEMS_REF = '@problems';

/**
 * Turns attachment references from the webview (`path` or `path#L10-20`, relative to the
 * workspace) into context blocks for the model. References are untrusted: each goes through the
 * same sandbox as the workspace server, so nothing outside the workspace can be attached.
 */
export async function readAttachments(workspace: string, refs: string[], problems?: () => string): Promise<{ blocks: string[]; errors: string[] }> {
  const sandbox = new Sandbox(workspace);
  const blocks: string[] = [];
  const errors: string[] = [];
  for (const ref of refs) {
    if (ref === PROBLEMS_REF) {
      if (problems) blocks.push(`<problems>\n${problems()}\n</problems>`);
      continue;
    }
    const match = /^(.*?)(?:#L(\d+)(?:-(\d+))?)?$/.exec(ref);
    const path = match?.[1] ?? ref;
    try {
      const target = await sandbox.existing(path);
      if ((await stat(target.real)).isDirectory()) {
        blocks.push(`<attached_folder path="${target.rel}">\n${await listing(target.real)}\n</attached_folder>`);
        continue;
      }
      let text = await readCapped(target.real);
      let range = '';
      if (match?.[2]) {
        const from = Number(match[2]);
        const to = Number(match[3] ?? match[2]);
        text = text.split('\n').slice(from - 1, to).join('\n');
        range = ` lines="${from}-${to}"`;
      }
      blocks.push(`<attached_file path="${target.rel}"${range}>\n${text}\n</attached_file>`);
    } catch (err) {
      errors.push(`Could not attach ${ref}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { blocks, errors };
}

/** A folder's entries, folders marked with a trailing slash, sorted. */
async function listing(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  const shown = names.slice(0, MAX_FOLDER_ENTRIES);
  return names.length > shown.length ? `${shown.join('\n')}\n[… ${names.length - shown.length} more entries]` : shown.join('\n') || '(empty)';
}

async function readCapped(file: string): Promise<string> {
  // A FIFO would block open(); only regular files are read.
  if (!(await stat(file)).isFile()) throw new Error('it is not a regular file');
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, MAX_ATTACHMENT_BYTES));
    await handle.read(buffer, 0, buffer.length, 0);
    if (looksBinary(buffer)) throw new Error('it is a binary file');
    const text = buffer.toString('utf8');
    return size > MAX_ATTACHMENT_BYTES ? `${text}\n[… cut at ${MAX_ATTACHMENT_BYTES} of ${size} bytes; use read_file for the rest]` : text;
  } finally {
    await handle.close();
  }
}
