import type { EmbeddedResource, ReadResourceResult, ResourceLink } from '@modelcontextprotocol/client';

/** A file a view offers for download (ui/download-file), as the person would save it. */
export interface DownloadFile {
  /** A bare file name (no folders), from the resource's name or URI: the person may change it when saving. */
  name: string;
  mimeType?: string;
  data: Uint8Array;
}

/** What one download request may carry; past these the request is refused whole (a view cannot fill a disk). */
export const DOWNLOAD_LIMITS = { files: 10, bytes: 64 * 1024 * 1024 };

export type Downloads = { files: DownloadFile[] } | { link: string } | { refused: string };

/**
 * A view's ui/download-file contents as files to save: inline text or base64 blobs; a link to its own server's
 * resource is read from that server; a web link is opened as a link (asked first, like any other), never fetched
 * by the host. A request with several web links, or links and files mixed, is refused: one question at a time.
 */
export async function downloadsOf(
  contents: ReadonlyArray<EmbeddedResource | ResourceLink>,
  read: (uri: string) => Promise<ReadResourceResult>,
): Promise<Downloads> {
  if (contents.length === 0) return { refused: 'nothing to download' };
  if (contents.length > DOWNLOAD_LIMITS.files) return { refused: `at most ${DOWNLOAD_LIMITS.files} files at once` };
  const web = contents.flatMap((c) => (c.type === 'resource_link' && /^https?:/i.test(c.uri) ? [c.uri] : []));
  if (web.length > 0) {
    return web.length === 1 && contents.length === 1 ? { link: web[0]! } : { refused: 'a web link is offered on its own' };
  }
  const files: DownloadFile[] = [];
  let bytes = 0;
  for (const item of contents) {
    const file = item.type === 'resource' ? fileOf(item.resource, undefined) : await linkedFile(item, read);
    if (!file) return { refused: `${item.type === 'resource' ? item.resource.uri : item.uri} has no content to save` };
    bytes += file.data.byteLength;
    if (bytes > DOWNLOAD_LIMITS.bytes) return { refused: `more than ${DOWNLOAD_LIMITS.bytes / 1024 / 1024} MB at once` };
    files.push(file);
  }
  return { files };
}

async function linkedFile(link: ResourceLink, read: (uri: string) => Promise<ReadResourceResult>): Promise<DownloadFile | undefined> {
  const first = (await read(link.uri)).contents[0];
  return first ? fileOf({ ...first, mimeType: first.mimeType ?? link.mimeType }, link.name) : undefined;
}

function fileOf(r: { uri: string; mimeType?: string; text?: unknown; blob?: unknown }, name: string | undefined): DownloadFile | undefined {
  const data = typeof r.blob === 'string' ? Buffer.from(r.blob, 'base64') : typeof r.text === 'string' ? Buffer.from(r.text, 'utf8') : undefined;
  if (!data) return undefined;
  return { name: fileName(name ?? lastSegment(r.uri)), ...(r.mimeType ? { mimeType: r.mimeType } : {}), data };
}

function lastSegment(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A name that cannot climb out of the folder the person picks, hide itself, or carry control characters. */
export function fileName(raw: string): string {
  const cleaned = raw
    .replace(/[\\/]/g, '_')
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 120);
  return cleaned || 'download';
}
