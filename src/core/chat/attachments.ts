import { open, readdir, stat } from 'node:fs/promises';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { PastedImage } from '../../common/protocol';
import { looksBinary } from '../../node/file-kind';
import { Sandbox } from '../../node/sandbox';
import { isImageMime } from '../../common/image-types';
import { messageOf } from '../../node/error-message';
import { appViewNote, isAppView } from '../mcp/requests/app-visibility';

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
        text = text
          .split('\n')
          .slice(from - 1, to)
          .join('\n');
        range = ` lines="${from}-${to}"`;
      }
      blocks.push(`<attached_file path="${target.rel}"${range}>\n${text}\n</attached_file>`);
    } catch (err) {
      errors.push(`Could not attach ${ref}: ${messageOf(err)}`);
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

/**
 * Everything attached to one message: workspace files, folders and `@problems` (readAttachments)
 * and MCP resources (readResourceAttachments), as context blocks, images and what could not be attached.
 */
export async function readMessageAttachments(
  workspace: string | undefined,
  refs: string[],
  readResource: ReadResource,
  problems?: () => string,
): Promise<{ blocks: string[]; images: PastedImage[]; errors: string[] }> {
  const resources = refs.filter((r) => parseResourceRef(r) !== undefined);
  const files = refs.filter((r) => !resources.includes(r));
  const blocks: string[] = [];
  const errors: string[] = [];
  if (files.length > 0) {
    if (!workspace) errors.push('Open a folder to attach files from it.');
    else {
      const read = await readAttachments(workspace, files, problems);
      blocks.push(...read.blocks);
      errors.push(...read.errors);
    }
  }
  const read = resources.length > 0 ? await readResourceAttachments(readResource, resources) : { blocks: [], images: [], errors: [] };
  return { blocks: [...blocks, ...read.blocks], images: read.images, errors: [...errors, ...read.errors] };
}

/** How an attached MCP resource travels in a message's attachment list: `@resource:<server, URI-encoded>:<uri>`. */
const RESOURCE_REF = '@resource:';

export function resourceRef(server: string, uri: string): string {
  return `${RESOURCE_REF}${encodeURIComponent(server)}:${uri}`;
}

export function parseResourceRef(ref: string): { server: string; uri: string } | undefined {
  if (!ref.startsWith(RESOURCE_REF)) return undefined;
  const rest = ref.slice(RESOURCE_REF.length);
  const colon = rest.indexOf(':');
  if (colon <= 0 || colon === rest.length - 1) return undefined;
  try {
    return { server: decodeURIComponent(rest.slice(0, colon)), uri: rest.slice(colon + 1) };
  } catch {
    return undefined;
  }
}

type ReadResource = (server: string, uri: string) => Promise<ReadResourceResult>;

/**
 * Reads the MCP resources attached to a message (Add to Chat, `/resource`): text becomes a context
 * block naming the server and URI, cut like an attached file; an image goes with the message as an
 * image; other binary content is named, not sent.
 */
export async function readResourceAttachments(read: ReadResource, refs: string[]): Promise<{ blocks: string[]; images: PastedImage[]; errors: string[] }> {
  const blocks: string[] = [];
  const images: PastedImage[] = [];
  const errors: string[] = [];
  for (const ref of refs) {
    const target = parseResourceRef(ref);
    if (!target) {
      errors.push(`Could not attach ${ref}: not a resource reference`);
      continue;
    }
    try {
      const result = await read(target.server, target.uri);
      for (const c of result.contents) {
        const where = `server="${attr(target.server)}" uri="${attr(c.uri)}"`;
        if (isAppView(c)) blocks.push(`<attached_resource ${where}>${appViewNote(c.uri)}</attached_resource>`);
        else if ('text' in c && typeof c.text === 'string') {
          const cut =
            c.text.length > MAX_ATTACHMENT_BYTES
              ? `${c.text.slice(0, MAX_ATTACHMENT_BYTES)}\n[… cut at ${MAX_ATTACHMENT_BYTES} of ${c.text.length} characters; read_mcp_resource reads it whole]`
              : c.text;
          blocks.push(`<attached_resource ${where}${c.mimeType ? ` mimeType="${attr(c.mimeType)}"` : ''}>\n${cut}\n</attached_resource>`);
        } else if ('blob' in c && c.mimeType && isImageMime(c.mimeType) && c.blob.length <= MAX_IMAGE_BASE64) {
          blocks.push(`<attached_resource ${where} mimeType="${attr(c.mimeType)}">(the image below)</attached_resource>`);
          images.push({ mimeType: c.mimeType as PastedImage['mimeType'], data: c.blob });
        } else {
          blocks.push(`<attached_resource ${where}>[${c.mimeType ?? 'binary'} content, not sent]</attached_resource>`);
        }
      }
    } catch (err) {
      errors.push(`Could not attach ${target.uri} from ${target.server}: ${messageOf(err)}`);
    }
  }
  return { blocks, images, errors };
}

/** The API's 5 MB image limit, in base64 characters. */
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

function attr(s: string): string {
  return s.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
