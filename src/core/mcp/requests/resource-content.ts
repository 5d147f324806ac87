import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { formatBytes } from '../../../node/byte-size';
import { detectKind } from '../../../node/file-kind';
import { isImageMime, type ImageMime } from '../../../common/image-types';

/** What a read resource is to show: text (with its language when known), or an image. */
export type ResourceView = { kind: 'text'; text: string; language: string | undefined } | { kind: 'image'; mimeType: ImageMime; base64: string };

/**
 * How a resource read looks in the editor. A blob is an image only when its bytes say so (a server's
 * mimeType is a claim); any other blob is named by what its bytes are, its declared type and its size.
 */
export function resourceView(result: ReadResourceResult): ResourceView {
  const first = result.contents[0];
  if (result.contents.length === 1 && first && 'blob' in first) {
    const kind = detectKind(Buffer.from(first.blob.slice(0, 12_000), 'base64'));
    if (kind.kind === 'image' && isImageMime(kind.mimeType)) return { kind: 'image', mimeType: kind.mimeType, base64: first.blob };
  }
  const parts = result.contents.map((c) => ('text' in c ? c.text : blobText(c.blob, c.mimeType, c.uri)));
  const language = languageOf(result.contents.find((c) => 'text' in c)?.mimeType);
  return { kind: 'text', text: parts.join('\n\n') || '(the server sent this resource with no contents)', language };
}

function blobText(blob: string, mimeType: string | undefined, uri: string): string {
  const bytes = Buffer.from(blob, 'base64');
  const kind = detectKind(bytes.subarray(0, 8192));
  const what = kind.kind === 'text' ? 'binary data' : kind.name;
  return `[${what}${mimeType ? ` (${mimeType})` : ''}, ${formatBytes(bytes.length)}: ${uri}; MCP Agent shows only images and text]`;
}

const LANGUAGES: Record<string, string> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/json': 'json',
  'text/html': 'html',
  'text/css': 'css',
  'text/csv': 'plaintext',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'application/typescript': 'typescript',
  'text/typescript': 'typescript',
  'text/x-python': 'python',
  'application/x-python': 'python',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'image/svg+xml': 'xml',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'application/sql': 'sql',
  'text/x-sql': 'sql',
  'application/x-sh': 'shellscript',
  'text/x-shellscript': 'shellscript',
  'application/toml': 'toml',
  'text/plain': 'plaintext',
};

/** The VS Code language of a MIME type (`application/ld+json` counts as JSON); undefined when unknown. */
export function languageOf(mimeType: string | undefined): string | undefined {
  if (!mimeType) return undefined;
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (LANGUAGES[type]) return LANGUAGES[type];
  if (type.endsWith('+json')) return 'json';
  if (type.endsWith('+xml')) return 'xml';
  return undefined;
}
