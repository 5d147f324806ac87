/**
 * How far html-prune.ts lets a page's shape go. Apart from it so the server's main thread can name
 * the limits without loading the HTML tokenizer, which only the conversion workers need.
 */

export interface PruneLimits {
  /** Elements deeper than this are flattened into their text. */
  maxDepth: number;
  /** Attribute values longer than this many characters are dropped. */
  maxAttributeChars: number;
}

export const DEFAULT_PRUNE_LIMITS: PruneLimits = { maxDepth: 128, maxAttributeChars: 8192 };
