/** A cut that lands this close to a line break moves to it, so no line is shown half. */
const LINE_SNAP = 2048;

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest start of `text` within `bytes` UTF-8 bytes (never half a character), ending at a line break when one is near. */
export function headOf(text: string, bytes: number): string {
  // encodeInto stops before the first character that does not fit whole, and reports how far it read.
  let end = encoder.encodeInto(text, new Uint8Array(Math.max(0, bytes))).read;
  if (end >= text.length) return text;
  if (end === 0) return '';
  const nl = text.lastIndexOf('\n', end - 1);
  if (nl >= 0 && end - (nl + 1) <= LINE_SNAP) end = nl + 1;
  return text.slice(0, end);
}

/** The longest end of `text` within `bytes` UTF-8 bytes, starting after a line break when one is near. */
export function tailOf(text: string, bytes: number): string {
  if (bytes <= 0) return '';
  let start = Math.max(0, text.length - bytes);
  // A UTF-16 unit is at most 3 UTF-8 bytes, so each step drops at least a third of the excess: a few steps at most.
  for (let excess = utf8Bytes(text.slice(start)) - bytes; excess > 0; excess = utf8Bytes(text.slice(start)) - bytes) {
    start += Math.ceil(excess / 3);
  }
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  if (start === 0) return text;
  const nl = text.indexOf('\n', start);
  if (nl >= 0 && nl + 1 - start <= LINE_SNAP && nl + 1 < text.length) start = nl + 1;
  return text.slice(start);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Lines as a person counts them: a final line without a newline still counts. */
export function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}
