/**
 * Whose page a URL opens, as a person should read it before agreeing: the registrable domain (the part
 * someone registered and controls: `evil.io` of `login.example.com.evil.io`, `foo.github.io` of
 * `a.foo.github.io`), and, for an international name, what its `xn--` form reads as.
 *
 * The registrable domain is decided by the Public Suffix List (`co.uk`, `github.io` are suffixes, not
 * sites), so it comes from tldts: a kept-up library that ships the list inside the package (nothing is
 * fetched at run time) with no dependency but its own core. A hand-written guess ("the last two labels")
 * would call `co.uk` a site and every `*.github.io` page one owner's.
 */
import { domainToUnicode } from 'node:url';

type Tldts = typeof import('tldts');
let tldts: Tldts | undefined;

export interface UrlSite {
  /** The host as the URL has it (an international name in its `xn--` form), with a port if any. */
  host: string;
  /** The registrable domain; the host itself for an IP address, `localhost` or a name with no public suffix. */
  domain: string;
  /** How an international (`xn--`) host reads in Unicode, which may imitate another name. */
  unicode?: string;
}

/** The site of an http(s) URL (elicitation-handler.ts checks the scheme first). */
export function urlSite(url: URL): UrlSite {
  // Loaded on the first URL rather than with the extension: the list is 131 KiB of its bundle. require, as
  // urlSite answers synchronously; the extension's build makes it a bundle of its own (dist/lazy/tldts.js).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (above)
  tldts ??= require('tldts') as Tldts;
  // Private suffixes count (github.io, blogspot.com): each page under them is someone else's site.
  const parsed = tldts.parse(url.hostname, { allowPrivateDomains: true });
  const domain = parsed.domain ?? url.hostname;
  const international = url.hostname.split('.').some((label) => label.startsWith('xn--'));
  const unicode = international ? domainToUnicode(url.hostname) : '';
  return { host: url.host, domain, ...(unicode && unicode !== url.hostname ? { unicode } : {}) };
}
