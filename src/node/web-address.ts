/**
 * How a web address is read: the one reading that fetch_url (servers/web) uses to reach a host and that the
 * egress guard (src/core/egress) uses to decide what a call would reach. Both go through the WHATWG URL parser,
 * which is also what Node's fetch, curl-like tools in JavaScript and browsers use, so a respelling the tool
 * accepts (`http:host/x`, `http:\\host`, `ht<TAB>tp://`, `HTTP://2130706433`) is the same host to both.
 */

/** The schemes whose URLs reach a web host: what fetch_url fetches (http, https) and what a socket opens (ws, wss). */
const WEB_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'ws:', 'wss:']);

/** Thrown when a URL cannot be fetched; the message says why in words for the model and the person. */
export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError';
}

/** The URL `text` stands for if it reaches a web host (http, https, ws, wss, with a host), else undefined. */
export function readWebUrl(text: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return undefined;
  }
  return WEB_PROTOCOLS.has(url.protocol) && url.hostname !== '' ? url : undefined;
}

/** A host as a request reaches it: the parser's form (lower case, punycode, IPv4 in dotted form) without a trailing dot. */
export function webHost(url: URL): string {
  return url.hostname.replace(/\.$/, '');
}

/** What fetch_url fetches: an http(s) URL with a host and no user name or password; anything else is refused, saying why. */
export function parseWebUrl(text: string): URL {
  const url = readWebUrl(text);
  if (!url) {
    let protocol: string | undefined;
    try {
      protocol = new URL(text).protocol;
    } catch {
      throw new BlockedUrlError(`"${text}" is not a valid URL; give a full http:// or https:// URL`);
    }
    if (protocol === 'http:' || protocol === 'https:') throw new BlockedUrlError(`"${text}" has no host name`);
    throw new BlockedUrlError(`${protocol.replace(/:$/, '')}: URLs are refused; only http:// and https:// URLs can be fetched`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedUrlError(`${url.protocol.replace(/:$/, '')}: URLs are refused; only http:// and https:// URLs can be fetched`);
  }
  if (url.username || url.password) throw new BlockedUrlError('URLs with a user name or password in them are refused');
  return url;
}
