import type Anthropic from '@anthropic-ai/sdk';
import { formatBytes } from '../../node/byte-size';
import { detectKind } from '../../node/file-kind';
import { isImageMime } from '../../common/image-types';

/** The API's limits for what a tool result may carry, in base64 characters: 5 MB an image, a PDF well under a request's 32 MB. */
const MAX_IMAGE_BASE64 = 7_000_000;
const MAX_PDF_BASE64 = 14_000_000;

export type BinaryForModel =
  { kind: 'image'; block: Anthropic.ImageBlockParam } | { kind: 'document'; block: Anthropic.DocumentBlockParam } | { kind: 'text'; text: string };

/**
 * What binary content from a server (a blob resource, audio, an image) becomes for the model, decided by its
 * bytes (a server's mimeType is a claim): an image the API takes is an image, a PDF a document, UTF-8 text
 * is text; anything else is left out with a note that says what it was, its size, and why it is not there.
 */
export function binaryForModel(base64: string, claimed: string | undefined, what: string): BinaryForModel {
  const bytes = Buffer.from(base64, 'base64');
  const kind = detectKind(bytes.subarray(0, 8192));
  const size = formatBytes(bytes.length);
  const described = `${what} (${claimed ?? 'no type given'}, ${size})`;
  if (kind.kind === 'image' && isImageMime(kind.mimeType)) {
    if (base64.length > MAX_IMAGE_BASE64) return { kind: 'text', text: `[${described} left out: an image over 5 MB is more than the model takes]` };
    return { kind: 'image', block: { type: 'image', source: { type: 'base64', media_type: kind.mimeType, data: base64 } } };
  }
  if (kind.kind === 'binary' && kind.name === 'PDF document') {
    if (base64.length > MAX_PDF_BASE64) return { kind: 'text', text: `[${described} left out: a PDF over 10 MB is more than a tool result may carry]` };
    return { kind: 'document', block: { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: base64 }, title: what } };
  }
  if (kind.kind === 'text' && !(claimed ?? '').startsWith('audio/')) {
    return { kind: 'text', text: `${what} (${claimed ?? 'text'}):\n${bytes.toString('utf8')}` };
  }
  const name = kind.kind === 'text' ? 'binary data' : kind.name;
  const why = (claimed ?? '').startsWith('audio/') ? 'the model takes no audio' : 'the model takes images, PDFs and text only';
  return { kind: 'text', text: `[${described}, ${name}, left out: ${why}]` };
}
