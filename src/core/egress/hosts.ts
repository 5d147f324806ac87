/**
 * Hosts: the ones the person names in what they type, and the ones a tool call would send data to.
 * Both are read with the WHATWG URL parser (what fetch uses), so a host is spelled the way the
 * request will spell it: lower case, IDNs as punycode, no trailing dot.
 */

/** URLs inside any text: what a tool's argument or the person's message holds. */
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>`\\)\]}]+/gi;
/** A bare host the person types ("look at docs.python.org", IDNs too): at least one dot and a letters-only last label. */
const BARE_HOST = /(?<![\p{L}\p{N}_@./-])((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}[\p{L}-]{1,62})(?=[/:\s,;!?)"'\]]|\.(?:\s|$)|$)/giu;
/** Endings a file name has and a host never needs (a person typing `notes.md` names no host). */
const FILE_ENDINGS = /\.(md|txt|py|ts|js|json|ya?ml|toml|csv|html?|css|sh|rs|go|java|c|h|cpp|db|sqlite|log|lock|ini|cfg|xml|pdf|png|jpe?g|gif|svg)$/i;

/** The host of a URL as a request would use it, or undefined when it is not an http(s)/ws(s) URL. */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (!/^(https?|wss?):$/.test(u.protocol) || u.hostname === '') return undefined;
    return u.hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** Every http(s)/ws(s) URL inside `text`, in order. */
export function urlsIn(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(/[.,;:!?]+$/, ''));
}

/** The hosts the person names in a message: those of the URLs they type, and bare host names. */
export function hostsNamedIn(text: string): string[] {
  const hosts = urlsIn(text).flatMap((u) => hostOf(u) ?? []);
  for (const m of text.matchAll(BARE_HOST)) {
    const bare = m[1]!;
    if (FILE_ENDINGS.test(bare)) continue;
    const host = hostOf(`https://${bare}/`);
    if (host) hosts.push(host);
  }
  return [...new Set(hosts)];
}

/** Every URL a tool call's input holds, at any depth (a list of URLs, a URL inside a command line). */
export function urlsInInput(input: unknown, depth = 0): string[] {
  if (typeof input === 'string') return urlsIn(input);
  if (depth > 8 || input === null || typeof input !== 'object') return [];
  const values = Array.isArray(input) ? input : Object.values(input);
  return values.flatMap((v) => urlsInInput(v, depth + 1));
}

/**
 * True when `host` is `named` or lies under it: naming `example.com` vouches for `docs.example.com`
 * (one owner), never for `example.com.evil.io` or `notexample.com`. An IP address matches only itself.
 */
export function isUnder(host: string, named: string): boolean {
  return host === named || (host.endsWith(`.${named}`) && !/^[\d.]+$/.test(host) && named.includes('.'));
}
