import { readWebUrl, webHost } from '../../node/web-address';
import { hostsInText } from './destinations';

/**
 * The hosts a person names in what they type. An address they wrote (a URL in any spelling the parser takes, an
 * e-mail address, `git@host:repo`) names its host. A bare word with a dot names a host only when it reads as a
 * site to anyone: many real top-level domains are also words of code or file names (`backup.zip`, `plt.show`,
 * `user.email`, `df.info`), so a two-label name counts only under the endings sites commonly have, and a longer
 * one only under a real public suffix. A name the rule misses costs one question; a word taken for a host would
 * let data go to whoever registered it.
 */

/** A bare host name as typed in prose (IDNs too): at least one dot, letters in its last label. */
const BARE_HOST = /(?<![\p{L}\p{N}_@./\\:-])((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}[\p{L}-]{1,62})(?=[/:\s,;!?)"'\]]|\.(?:\s|$)|$)/giu;
/** Endings a file name has and a host never needs (a person typing `notes.md` names no host). */
const FILE_ENDINGS =
  /\.(md|txt|py|ts|js|json|ya?ml|toml|csv|html?|css|sh|rs|go|java|c|h|cpp|db|sqlite|log|lock|ini|cfg|xml|pdf|png|jpe?g|gif|svg|zip|gz|tar|rb|pl|php|kt|swift|env)$/i;
/** The endings of two-label names that read as a site whatever the words before them. */
const SITE_ENDINGS: ReadonlySet<string> = new Set([
  'com',
  'org',
  'net',
  'edu',
  'gov',
  'io',
  'dev',
  'ai',
  'co',
  'uk',
  'de',
  'fr',
  'jp',
  'eu',
  'ca',
  'au',
  'us',
  'nl',
  'ch',
]);

type Tldts = typeof import('tldts');
let tldts: Tldts | undefined;

/** The hosts the person names in one message. */
export function hostsNamedIn(text: string): string[] {
  const hosts = hostsInText(text).map((d) => d.host);
  for (const m of text.matchAll(BARE_HOST)) {
    const bare = m[1]!;
    if (FILE_ENDINGS.test(bare)) continue;
    const url = readWebUrl(`https://${bare}/`);
    if (url && readsAsSite(webHost(url))) hosts.push(webHost(url));
  }
  return [...new Set(hosts)];
}

function readsAsSite(host: string): boolean {
  const labels = host.split('.');
  if (labels[0] === 'www') return true;
  if (labels.length === 2) return SITE_ENDINGS.has(labels[1]!);
  // The list loads on the first long name (131 KiB); require, as this answers synchronously.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (above)
  tldts ??= require('tldts') as Tldts;
  const parsed = tldts.parse(host);
  return parsed.isIcann === true && parsed.domain !== null;
}

/**
 * True when `host` is `named` or lies under it: naming `example.com` vouches for `docs.example.com` (one owner),
 * never for `example.com.evil.io` or `notexample.com`. An IP address matches only itself.
 */
export function isUnder(host: string, named: string): boolean {
  return host === named || (host.endsWith(`.${named}`) && !/^[\d.]+$/.test(host) && named.includes('.'));
}
