/** What the first bytes of a file say it is. */
export type FileKind = { kind: 'text' } | { kind: 'image'; mimeType: string; name: string } | { kind: 'binary'; name: string };

const SIGNATURES: Array<{ bytes: Array<number | null>; name: string; mime?: string; weak?: boolean }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], name: 'PNG image', mime: 'image/png' },
  { bytes: [0xff, 0xd8, 0xff], name: 'JPEG image', mime: 'image/jpeg' },
  { bytes: [...ascii('GIF87a')], name: 'GIF image', mime: 'image/gif' },
  { bytes: [...ascii('GIF89a')], name: 'GIF image', mime: 'image/gif' },
  { bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('WEBP')], name: 'WebP image', mime: 'image/webp' },
  { bytes: [...ascii('SQLite format 3'), 0], name: 'SQLite database' },
  { bytes: [...ascii('%PDF')], name: 'PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], name: 'ZIP archive (or docx/xlsx/jar)' },
  { bytes: [0x1f, 0x8b], name: 'gzip archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], name: 'ELF executable' },
  { bytes: [0x4d, 0x5a], name: 'Windows executable', weak: true },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], name: 'Mach-O executable' },
  { bytes: [...ascii('BM')], name: 'BMP image', weak: true },
  { bytes: [0x00, 0x00, 0x01, 0x00], name: 'ICO image' },
  { bytes: [0x00, 0x61, 0x73, 0x6d], name: 'WebAssembly module' },
];

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

function matches(head: Uint8Array, sig: Array<number | null>): boolean {
  if (head.length < sig.length) return false;
  return sig.every((b, i) => b === null || head[i] === b);
}

/** How much of the start of a file or body is looked at to tell text from binary. */
const SNIFF_BYTES = 8192;

/** A NUL byte near the start means binary: text in any encoding the model can read has none. */
export function looksBinary(data: Uint8Array): boolean {
  return data.subarray(0, SNIFF_BYTES).includes(0);
}

/** Looks at (up to) the first 8 KiB: known magic bytes first, then a NUL byte means binary. */
export function detectKind(head: Uint8Array): FileKind {
  const hasNul = looksBinary(head);
  for (const sig of SIGNATURES) {
    // Two-letter signatures ("BM", "MZ") also start ordinary text: trust them only with a NUL byte.
    if (!matches(head, sig.bytes) || (sig.weak && !hasNul)) continue;
    if (sig.mime) return { kind: 'image', mimeType: sig.mime, name: sig.name };
    return { kind: 'binary', name: sig.name };
  }
  // UTF-16 text has NULs too, but the model cannot use it through a text channel either.
  if (hasNul) return { kind: 'binary', name: 'unknown binary data' };
  return { kind: 'text' };
}
