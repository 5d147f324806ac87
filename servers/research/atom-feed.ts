import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ToolError } from '../lib/results.js';

/**
 * Reads arXiv's Atom answer into papers. A feed with a DTD is refused outright: arXiv never sends
 * one, and DTD entities are how XML turns into file reads (XXE) or gigabytes (billion laughs).
 * The parser is also told not to expand entities, and the five XML ones are decoded here by hand.
 */

export interface Paper {
  /** Short arXiv id with version, e.g. 2401.01234v1 (old style: hep-th/9901001v1). */
  id: string;
  title: string;
  authors: string[];
  summary: string;
  pdf_url: string;
  /** YYYY-MM-DD */
  published: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'entry' || name === 'author' || name === 'link',
});

type Node = string | { '#text'?: string; [key: string]: unknown } | undefined;

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_m, ref: string) => {
    if (!ref.startsWith('#')) return XML_ENTITIES[ref]!;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function text(node: unknown): string {
  const n = node as Node;
  const raw = typeof n === 'string' ? n : typeof n === 'object' && n && typeof n['#text'] === 'string' ? n['#text'] : '';
  return decodeXmlText(raw).replace(/\s+/g, ' ').trim();
}

const ABS_PREFIX = /^https?:\/\/(export\.)?arxiv\.org\/abs\//i;

/** "http://arxiv.org/abs/2401.01234v1", "arXiv:2401.01234v1" and "2401.01234v1" all name one paper. */
export function shortId(id: string): string {
  return id
    .trim()
    .replace(ABS_PREFIX, '')
    .replace(/^arxiv:/i, '');
}

interface Entry {
  id?: unknown;
  title?: unknown;
  summary?: unknown;
  published?: unknown;
  author?: { name?: unknown }[];
  link?: { '@_href'?: string; '@_title'?: string; '@_type'?: string }[];
}

function toPaper(entry: Entry): Paper {
  const id = shortId(text(entry.id));
  const links = entry.link ?? [];
  const pdf = links.find((l) => l['@_title'] === 'pdf' || l['@_type'] === 'application/pdf')?.['@_href'];
  return {
    id,
    title: text(entry.title),
    authors: (entry.author ?? []).map((a) => text(a.name)).filter(Boolean),
    summary: text(entry.summary),
    pdf_url: pdf ? decodeXmlText(pdf) : `https://arxiv.org/pdf/${id}`,
    published: text(entry.published).slice(0, 10),
  };
}

export function parseArxivFeed(xml: string): Paper[] {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new ToolError(
      'arXiv answered with an XML document type declaration (DTD), which this server refuses to parse: ' +
        'DTD entities can read local files or expand without bound. Check ARXIV_API_URL points at the real arXiv API.',
    );
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new ToolError(`arXiv answered with malformed XML (${valid.err.msg} at line ${valid.err.line}); try again later.`);
  }
  const doc = parser.parse(xml) as { feed?: { entry?: Entry[] } };
  if (!doc.feed) throw new ToolError('arXiv answered with XML that is not an Atom feed; try again later.');
  const entries = doc.feed.entry ?? [];
  // arXiv reports a bad query as a single entry whose id points at its error docs.
  const error = entries.find((e) => text(e.id).includes('arxiv.org/api/errors'));
  if (error) throw new ToolError(`arXiv refused the query: ${text(error.summary) || text(error.title)}`);
  return entries.map(toPaper).filter((p) => p.id && p.title);
}
