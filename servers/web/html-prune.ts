import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { DEFAULT_PRUNE_LIMITS, type PruneLimits } from './prune-limits.js';
import { BLOCK, boundaryFor, DROPPED, IMPLIED_CLOSE, NO_POP, VOID } from './html-elements.js';

export { DEFAULT_PRUNE_LIMITS, type PruneLimits };

/**
 * Bounds the shape of an HTML page before the spec parser (domino, inside turndown) sees it. That
 * parser checks "is there a <p> in scope" by walking the stack of open elements, so every tag costs
 * time in proportion to the nesting depth, and a deeply nested page, or one element with a huge number of
 * attributes, takes tens of seconds or overflows the stack (bench/README.md has the times). So the page is re-written, in one linear
 * pass of htmlparser2's tokenizer, with
 * - elements nested deeper than `maxDepth` dropped, their text kept (flattened) and counted;
 * - only the attributes the conversion reads (a href, img alt, ol start, code class), each of
 *   bounded length;
 * - comments emptied (kept as nodes: where they stand changes how turndown collapses whitespace).
 * Everything else is passed through byte for byte, so the spec parser still decides what an
 * ordinary page means and ordinary pages convert exactly as they did.
 *
 * htmlparser2's own Parser is not used: its element stack is an array it `unshift`s onto and
 * searches with `indexOf`, quadratic in depth itself.
 */

export interface PrunedHtml {
  html: string;
  /** How many elements were nested too deep and were flattened into their text. */
  flattened: number;
}

/** The attributes the markdown conversion reads; every other one is dropped. */
const KEPT_ATTRIBUTES: Record<string, string> = { a: 'href', img: 'alt', ol: 'start', code: 'class' };

/** What the pruner skips: the chrome, and the head (beyond the depth cap its text would otherwise leak out). */
const CHROME = new Set([...DROPPED, 'head', 'title']);

/** How far down the stack an end tag looks for its element; keeps each end tag O(1) past the cap. */
const SEARCH_WINDOW = 256;

export function pruneHtml(html: string, limits: PruneLimits = DEFAULT_PRUNE_LIMITS): PrunedHtml {
  const out: string[] = [];
  /** Every open element, outermost first, and whether its start tag was written (within the cap). */
  const stack: string[] = [];
  const shown: boolean[] = [];
  /** While the stack is deeper than this, nothing is written (chrome flattened past the cap). */
  let skipAbove = Infinity;
  let foreign = 0;
  let flattened = 0;

  let tag = '';
  let attributes = '';
  let keptAttribute: string | undefined;
  let wroteAttribute = false;
  let attributeName = '';
  let attributeValue = '';

  const write = (text: string): void => {
    if (stack.length <= skipAbove) out.push(text);
  };
  const isForeign = (name: string): boolean => name === 'svg' || name === 'math';

  const push = (name: string, written: boolean): void => {
    stack.push(name);
    shown.push(written);
    if (isForeign(name)) foreign++;
  };
  const popTo = (index: number): void => {
    while (stack.length > index) {
      shown.pop();
      if (isForeign(stack.pop()!)) foreign--;
    }
    if (stack.length <= skipAbove) skipAbove = Infinity;
  };
  /** Takes one element out of the middle of the stack, leaving those above it open. */
  const remove = (index: number): void => {
    stack.splice(index, 1);
    shown.splice(index, 1);
    if (index === skipAbove) skipAbove = Infinity;
    else if (index < skipAbove) skipAbove--;
  };

  /** Where `name` is open, searching down from the top, stopping at the boundaries its end tag stops at. */
  const openIndex = (name: string): number => {
    const boundary = boundaryFor(name);
    const bottom = Math.max(0, stack.length - SEARCH_WINDOW);
    for (let i = stack.length - 1; i >= bottom; i--) {
      if (stack[i] === name) return i;
      if (boundary.has(stack[i]!)) return -1;
    }
    return -1;
  };

  const openTag = (selfClosing: boolean): void => {
    const name = tag;
    tag = '';
    const closes = IMPLIED_CLOSE.get(name);
    if (closes && foreign === 0) while (stack.length > 0 && closes.has(stack[stack.length - 1]!)) popTo(stack.length - 1);
    const closed = VOID.has(name) || (selfClosing && foreign > 0);
    if (stack.length >= limits.maxDepth) {
      if (BLOCK.has(name) || name === 'br') write(' ');
      if (closed) return;
      flattened++;
      push(name, false);
      if (CHROME.has(name) && skipAbove === Infinity) skipAbove = stack.length - 1;
      return;
    }
    write(`<${name}${attributes}${selfClosing ? '/' : ''}>`);
    if (!closed) push(name, true);
  };

  const closeTag = (name: string): void => {
    const index = NO_POP.has(name) ? -1 : openIndex(name);
    // An unmatched end tag is written where the elements around it are.
    const written = index >= 0 ? shown[index]! : stack.length === 0 || shown[stack.length - 1]!;
    if (index >= 0) {
      // The parser takes a form out of the stack without closing what is open inside it.
      if (name === 'form') remove(index);
      else popTo(index);
    }
    // An unmatched end tag is written too: the parser decides what it means (</p> makes a <p>).
    if (written) write(`</${name}>`);
    else if (BLOCK.has(name)) write(' ');
  };

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      attributes = '';
      keptAttribute = tag === 'code' && stack[stack.length - 1] !== 'pre' ? undefined : KEPT_ATTRIBUTES[tag];
      wroteAttribute = false;
    },
    onattribname(start, end) {
      attributeName = html.slice(start, end).toLowerCase();
      attributeValue = '';
    },
    onattribdata(start, end) {
      if (attributeName !== keptAttribute || attributeValue.length > limits.maxAttributeChars) return;
      attributeValue += html.slice(start, end);
    },
    onattribentity() {
      // Entities are left undecoded (decodeEntities: false); the parser decodes them.
    },
    onattribend() {
      // The first of duplicate attributes wins, as in the spec.
      if (attributeName !== keptAttribute || wroteAttribute) return;
      wroteAttribute = true;
      if (attributeValue.length > limits.maxAttributeChars) return;
      attributes += ` ${attributeName}="${attributeValue.replace(/"/g, '&quot;')}"`;
    },
    onopentagend() {
      openTag(false);
    },
    onselfclosingtag() {
      openTag(true);
    },
    onclosetag(start, end) {
      closeTag(html.slice(start, end).toLowerCase());
    },
    ontext(start, end) {
      write(html.slice(start, end));
    },
    ontextentity() {
      // Not called: entities stay in the text as written.
    },
    ondeclaration(start, end) {
      // The doctype decides quirks mode, which changes how the parser nests a table in a <p>.
      write(`<!${html.slice(start, end)}>`);
    },
    oncomment() {
      write('<!---->');
    },
    oncdata() {
      write('<!---->');
    },
    onprocessinginstruction() {
      write('<!---->');
    },
    onend() {},
    isInForeignContext: () => foreign > 0,
  };

  const tokenizer = new Tokenizer({ decodeEntities: false }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  return { html: out.join(''), flattened };
}
