/**
 * What a terminal acts on instead of printing: C0 controls but newline and tab (ESC starts CSI
 * and OSC sequences: cursor moves, SGR 8 hidden text, window titles, OSC 52 clipboard writes;
 * BEL, backspace and CR overwrite or hide what was printed), DEL, the C1 controls U+0080-U+009F
 * (U+009B is a one-character CSI on some terminals), and the BiDi embeddings, overrides and
 * isolates that reorder how a line reads (U+202A-U+202E, U+2066-U+2069).
 */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** JSON's short escapes; every other character is written \uNNNN, as JSON writes it. */
const SHORT: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\r': '\\r' };

/**
 * Shows every such character as the escape JSON would write for it (`\u001b`, `\r`, `\u009b`,
 * `\u202e`): plain ASCII, so it reads the same in any terminal font and log file and can be pasted
 * into a bug report, and the same form the tool-input lines (JSON) already show. Control pictures
 * such as ␛ were the other candidate: they need a font that has them and cannot be told from a
 * real U+241B in the content. Per character, with no state, so a sequence split across streamed
 * deltas is escaped all the same. CRLF becomes LF; a lone CR is escaped.
 */
export function escapeControls(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, (ch) => {
    return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * Escapes streamed text: like escapeControls, but a CR at the end of one piece waits for the next,
 * where it may turn out to be half of a CRLF.
 */
export class StreamEscaper {
  private pendingCr = false;

  write(piece: string): string {
    let text = (this.pendingCr ? '\r' : '') + piece;
    this.pendingCr = text.endsWith('\r');
    if (this.pendingCr) text = text.slice(0, -1);
    return escapeControls(text);
  }

  /** What is still held back (a lone CR at the very end), escaped. */
  flush(): string {
    const held = this.pendingCr ? escapeControls('\r') : '';
    this.pendingCr = false;
    return held;
  }
}
