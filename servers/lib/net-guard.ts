import ipaddr from 'ipaddr.js';

/**
 * The policy that keeps a URL fetch off the machine's own network: only http(s), and only public
 * unicast addresses unless the exact host:port is allowed by configuration. Pure functions, so the
 * rules can be tested without touching the network.
 */

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** True when an address (IPv4 or IPv6 text, brackets allowed) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Zone ids (fe80::1%eth0) only make sense on local links.
  if (text.includes('%') || !ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return isPublicV6(parsed as ipaddr.IPv6);
}

function isPublicV6(v6: ipaddr.IPv6): boolean {
  const range = v6.range();
  // Addresses that carry an IPv4 address are as public as the address they carry.
  if (range === 'ipv4Mapped') return isPublicAddress(v6.toIPv4Address().toString());
  if (range === 'rfc6145') return isPublicAddress(embeddedTail(v6));
  // Only the well-known NAT64 prefix (64:ff9b::/96) maps public IPv4; the local-use /48 is local.
  if (range === 'rfc6052') return v6.parts.slice(2, 6).every((p) => p === 0) && isPublicAddress(embeddedTail(v6));
  if (range === '6to4') return isPublicAddress(embedded6to4(v6));
  // Teredo hides its endpoints (obfuscated client address), so it can't be checked: refuse.
  if (range !== 'unicast') return false;
  return v6.match(GLOBAL_UNICAST_V6);
}

function embeddedTail(v6: ipaddr.IPv6): string {
  const p = v6.parts;
  return [p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff].join('.');
}

function embedded6to4(v6: ipaddr.IPv6): string {
  const p = v6.parts;
  return [p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff].join('.');
}

/** Why an address is not public, in words a person understands ("loopback", "private", ...). */
export function describeAddress(address: string): string {
  const text = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return 'not an IP address';
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return `IPv4-mapped ${describeAddress(v6.toIPv4Address().toString())}`;
  }
  const range = parsed.range();
  if (text === '169.254.169.254') return 'cloud metadata (link-local)';
  return range === 'unicast' ? 'not globally routable' : range;
}

/** Allowed host:port pairs, normalised the way WHATWG URL normalises a URL's host and port. */
export type AllowList = ReadonlySet<string>;

/** Parses `MCP_AGENT_FETCH_ALLOW`-style text: comma-separated `host:port` (IPv6 as `[::1]:port`). */
export function parseAllowList(text: string | undefined): AllowList {
  const allowed = new Set<string>();
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const key = allowKeyOf(entry);
    if (key) allowed.add(key);
  }
  return allowed;
}

function allowKeyOf(entry: string): string | undefined {
  try {
    const url = new URL(`http://${entry}`);
    // A bare host (no port) would silently mean port 80; demand an explicit port instead.
    if (!/:\d+$/.test(entry)) return undefined;
    return `${url.hostname}:${url.port || '80'}`;
  } catch {
    return undefined;
  }
}

/** The `host:port` key of a URL, with the scheme's default port filled in. */
export function hostPortOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

export function isAllowed(url: URL, allow: AllowList): boolean {
  return allow.has(hostPortOf(url));
}

/** Thrown when the policy refuses a URL or an address; the message says why. */
export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError';
}

/** Parses a URL and refuses anything that isn't http(s) with a host. */
export function parseWebUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BlockedUrlError(`"${text}" is not a valid URL; give a full http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedUrlError(
      `${url.protocol.replace(/:$/, '')}: URLs are refused; only http:// and https:// URLs can be fetched`,
    );
  }
  if (!url.hostname) throw new BlockedUrlError(`"${text}" has no host name`);
  if (url.username || url.password) {
    throw new BlockedUrlError('URLs with a user name or password in them are refused');
  }
  return url;
}

/** Host name as the resolver wants it: IPv6 literals lose their brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Checks every address a host resolved to; one private address is enough to refuse the lot, since
 * the connection could land on any of them.
 */
export function checkAddresses(url: URL, addresses: readonly string[], allow: AllowList): void {
  if (isAllowed(url, allow)) return;
  if (addresses.length === 0) throw new BlockedUrlError(`${url.hostname} did not resolve to any address`);
  for (const address of addresses) {
    if (!isPublicAddress(address)) {
      const shown = address === bareHost(url) ? address : `${url.hostname} (${address})`;
      throw new BlockedUrlError(
        `refused to connect to ${shown}: ${describeAddress(address)} address. ` +
          'fetch_url only reaches public internet addresses.',
      );
    }
  }
}
