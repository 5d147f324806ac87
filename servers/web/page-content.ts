import { looksBinary } from '../../src/node/file-kind';
import { ToolError } from '../lib/results.js';
import type { Markdown } from './html-to-markdown.js';

/** Turns a downloaded body into text by its content type: HTML to markdown, JSON pretty, text as is. */

export interface PageText {
  kind: 'html' | 'json' | 'text';
  text: string;
  /** HTML elements nested too deep to keep their structure (see html-prune.ts). */
  flattened?: number;
}

/** Turns a page of HTML into markdown (in the server: a worker thread under the fetch's deadline). */
export type ConvertHtml = (html: string, base: URL) => Promise<Markdown>;

const BINARY_PREFIXES = ['image/', 'audio/', 'video/', 'font/', 'model/'];
const BINARY_TYPES = new Set([
  'application/octet-stream',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/x-tar',
  'application/x-7z-compressed',
  'application/vnd.ms-excel',
  'application/msword',
  'application/wasm',
  'application/x-executable',
]);

export function mediaTypeOf(contentType: string | undefined): { type: string; charset: string | undefined } {
  const [type = '', ...params] = (contentType ?? '').split(';');
  const charsetParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  const charset = charsetParam?.slice('charset='.length).replace(/^"|"$/g, '').trim();
  return { type: type.trim().toLowerCase(), charset };
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * C0 and C1 control characters other than tab and line breaks: a page's title or text can carry
 * terminal escape sequences, and whatever shows a tool result on a terminal would obey them.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL, '');
}

export async function pageText(body: Buffer, contentType: string | undefined, url: URL, truncated: boolean, convertHtml: ConvertHtml): Promise<PageText> {
  const page = await decodedPage(body, contentType, url, truncated, convertHtml);
  return { ...page, text: withoutControlCharacters(page.text) };
}

async function decodedPage(body: Buffer, contentType: string | undefined, url: URL, truncated: boolean, convertHtml: ConvertHtml): Promise<PageText> {
  const { type, charset } = mediaTypeOf(contentType);
  if (BINARY_TYPES.has(type) || BINARY_PREFIXES.some((p) => type.startsWith(p)) || looksBinary(body)) {
    throw new ToolError(
      `fetch_url: ${url.href} is binary content (${type || 'unknown type'}), which fetch_url can't show as text. ` +
        'Look for an HTML or text version of it instead.',
    );
  }
  const text = decode(body, charset);
  if (type === 'text/html' || type === 'application/xhtml+xml' || (!type && /^\s*<(!doctype html|html)/i.test(text))) {
    const { markdown, flattened } = await convertHtml(text, url);
    return { kind: 'html', text: markdown, flattened };
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    // A cut JSON body won't parse; show it as it came rather than fail.
    if (!truncated) {
      try {
        return { kind: 'json', text: JSON.stringify(JSON.parse(text), null, 2) };
      } catch {
        // Not valid JSON despite the header: fall through to plain text.
      }
    }
    return { kind: 'text', text };
  }
  return { kind: 'text', text };
}
