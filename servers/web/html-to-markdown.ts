import TurndownService from 'turndown';
import { DEFAULT_PRUNE_LIMITS, type PruneLimits, pruneHtml } from './html-prune.js';
import { DROPPED } from './html-elements.js';

/** What the rules read of a node of turndown's DOM (domino's): the server has no DOM types of its own. */
interface DomElement {
  nodeName: string;
  children: ArrayLike<unknown>;
  getAttribute(name: string): string | null;
}

/**
 * Turns an HTML page into markdown a model can read: page chrome (scripts, styles, navigation,
 * footers, forms) dropped, links made absolute so they can be fetched next, the title on top.
 */

interface Conversion {
  title: string;
  base: URL;
}

function makeService(state: { current: Conversion }): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
  });
  service.remove((node) => DROPPED.has(node.nodeName.toLowerCase()));
  service.addRule('title', {
    filter: 'title',
    replacement: (content) => {
      if (!state.current.title) state.current.title = content.replace(/\s+/g, ' ').trim();
      return '';
    },
  });
  service.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href'),
    replacement: (content, node) => {
      const text = content.trim();
      const href = absolute((node as unknown as DomElement).getAttribute('href') ?? '', state.current.base);
      if (!text) return '';
      return href ? `[${text}](${href})` : text;
    },
  });
  // turndown pads list markers to four columns ("-   item"); a reader (and the token count) wants "- item".
  service.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as unknown as DomElement | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1') || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  // Images are noise to a text reader; their alt text is what carries meaning.
  service.addRule('imageAlt', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = ((node as unknown as DomElement).getAttribute('alt') ?? '').trim();
      return alt ? `[image: ${alt}]` : '';
    },
  });
  return service;
}

function absolute(href: string, base: URL): string | undefined {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const state = { current: { title: '', base: new URL('http://invalid/') } };
let service: TurndownService | undefined;

export interface Markdown {
  title: string;
  markdown: string;
  /** Elements nested too deep to keep their structure, flattened into their text (0 for most pages). */
  flattened: number;
}

/** Bounds the page's shape (html-prune.ts), then converts it. */
export function htmlToMarkdown(html: string, base: URL, limits: PruneLimits = DEFAULT_PRUNE_LIMITS): Markdown {
  const pruned = pruneHtml(html, limits);
  return { ...renderMarkdown(pruned.html, base), flattened: pruned.flattened };
}

/**
 * The conversion itself, without the bounds: quadratic in the nesting depth, so only for HTML that
 * went through pruneHtml (or, in tests, to check pruning leaves ordinary pages as they were).
 */
export function renderMarkdown(html: string, base: URL): Omit<Markdown, 'flattened'> {
  service ??= makeService(state);
  // turndown wraps its input in its own element, which moves <title> out of <head>: capture it there.
  state.current = { title: '', base };
  const markdown = service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const { title } = state.current;
  return { title, markdown: title ? `# ${title}\n\n${markdown}` : markdown };
}
