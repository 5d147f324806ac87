import { decodedForms } from './destinations';

/**
 * Which private text a call would carry out, found by content: the text that entered the chat from a private
 * source (the workspace, a secret source, another server) is fingerprinted as it arrives, and an outbound
 * call's strings, in every form the guard can reverse (percent, base64, hex, JSON escapes), are looked up.
 *
 * Fingerprints are winnowed k-grams (Schleimer, Wilkerson, Aiken, "Winnowing", SIGMOD 2003): the minimum hash
 * of each window of W consecutive k-gram hashes, so any shared stretch of at least MATCH_CHARS characters is
 * found whatever surrounds it, while the index holds about 2/(W+1) of the positions. A hit is then checked
 * against the text itself, so a hash collision or a common 24-character phrase is not taken for a match.
 */

const K = 24;
const W = 24;
/** The shortest stretch of private text that is always found: W + K - 1. */
const MATCH_CHARS = W + K - 1;
/** Text indexed per chat; past it the oldest goes (the secret rule still holds for what it held). */
const MAX_INDEXED_CHARS = 16_000_000;

export interface ContentMatch {
  /** The source of the private text (".env", "src/app.ts", "server github"). */
  source: string;
  /** The stretch found, shortened for a card. */
  excerpt: string;
}

interface Entry {
  source: string;
  text: string;
}

export class ContentIndex {
  private readonly entries: Entry[] = [];
  private readonly fingerprints = new Map<number, number[]>();
  private chars = 0;

  /** Adds private text from `source`. */
  add(source: string, text: string): void {
    const normal = normalise(text);
    if (normal.length < MATCH_CHARS) return;
    const id = this.entries.length;
    this.entries.push({ source, text: normal });
    this.chars += normal.length;
    for (const h of winnow(normal)) {
      const ids = this.fingerprints.get(h);
      if (!ids) this.fingerprints.set(h, [id]);
      else if (ids.at(-1) !== id) ids.push(id);
    }
    while (this.chars > MAX_INDEXED_CHARS) this.dropOldest();
  }

  get size(): number {
    return this.entries.filter((e) => e.text !== '').length;
  }

  /**
   * The private text that `value` carries, in any form the guard can reverse, or undefined. A stretch `known`
   * says is no one's secret (the person typed it too, a public page holds it) is not a match.
   */
  find(value: string, known: (stretch: string) => boolean = () => false): ContentMatch | undefined {
    if (this.fingerprints.size === 0) return undefined;
    for (const form of reversedForms(value)) {
      const found = this.findIn(normalise(form), known);
      if (found) return found;
    }
    return undefined;
  }

  private findIn(query: string, known: (stretch: string) => boolean): ContentMatch | undefined {
    if (query.length < MATCH_CHARS) return undefined;
    const hashes = kgramHashes(query);
    for (let p = 0; p < hashes.length; p++) {
      for (const id of this.fingerprints.get(hashes[p]!) ?? []) {
        const entry = this.entries[id]!;
        // Some stretch of MATCH_CHARS around this k-gram must be in the text itself.
        for (let start = Math.max(0, p - (MATCH_CHARS - K)); start <= p && start + MATCH_CHARS <= query.length; start++) {
          const stretch = query.slice(start, start + MATCH_CHARS);
          if (entry.text.includes(stretch) && !known(stretch)) return { source: entry.source, excerpt: `${stretch.slice(0, 40)}…` };
        }
      }
    }
    return undefined;
  }

  private dropOldest(): void {
    const oldest = this.entries.find((e) => e.text !== '');
    if (!oldest) return;
    const id = this.entries.indexOf(oldest);
    for (const h of winnow(oldest.text)) {
      const ids = this.fingerprints.get(h)?.filter((i) => i !== id);
      if (ids && ids.length > 0) this.fingerprints.set(h, ids);
      else this.fingerprints.delete(h);
    }
    this.chars -= oldest.text.length;
    oldest.text = '';
  }
}

/** Case and runs of white space do not hide a copy. */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** Polynomial hashes of every K-character stretch, rolled (32-bit arithmetic). */
function kgramHashes(text: string): Uint32Array {
  const n = text.length - K + 1;
  if (n <= 0) return new Uint32Array(0);
  const out = new Uint32Array(n);
  const BASE = 0x01000193;
  let top = 1;
  for (let i = 0; i < K - 1; i++) top = Math.imul(top, BASE);
  let h = 0;
  for (let i = 0; i < K; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  out[0] = h >>> 0;
  for (let i = 1; i < n; i++) {
    h = (h - Math.imul(text.charCodeAt(i - 1), top)) | 0;
    h = (Math.imul(h, BASE) + text.charCodeAt(i + K - 1)) | 0;
    out[i] = h >>> 0;
  }
  return out;
}

/** The winnowed fingerprints: each window's minimum (the rightmost on a tie), each position once. */
function winnow(text: string): Set<number> {
  const hashes = kgramHashes(text);
  const picked = new Set<number>();
  if (hashes.length === 0) return picked;
  if (hashes.length <= W) {
    let min = 0;
    for (let i = 1; i < hashes.length; i++) if (hashes[i]! <= hashes[min]!) min = i;
    picked.add(hashes[min]!);
    return picked;
  }
  const deque: number[] = [];
  for (let i = 0; i < hashes.length; i++) {
    while (deque.length > 0 && hashes[deque.at(-1)!]! >= hashes[i]!) deque.pop();
    deque.push(i);
    if (deque[0]! <= i - W) deque.shift();
    if (i >= W - 1) picked.add(hashes[deque[0]!]!);
  }
  return picked;
}

/** What an outbound string may be hiding: the forms destinations.ts reads, form encoding, base64 and hex. */
export function reversedForms(value: string): string[] {
  const forms = new Set(decodedForms(value));
  for (const form of [...forms]) {
    if (form.includes('+')) forms.add(form.replace(/\+/g, ' '));
    for (const token of form.match(/[A-Za-z0-9+/_-]{24,}={0,2}/g) ?? []) {
      const text = Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
      if (mostlyText(text)) forms.add(text);
    }
    for (const token of form.match(/(?:[0-9a-f]{2}){16,}/gi) ?? []) {
      const text = Buffer.from(token, 'hex').toString('utf8');
      if (mostlyText(text)) forms.add(text);
    }
  }
  return [...forms];
}

function mostlyText(text: string): boolean {
  if (text.length === 0) return false;
  const printable = text.replace(/[^\x20-\x7e\n\t\u00a0-\uffff]/g, '').replace(/\ufffd/g, '').length;
  return printable / text.length > 0.9;
}
