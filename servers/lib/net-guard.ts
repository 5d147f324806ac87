import { describeAddress, isPublicAddress } from '../../src/node/address-class';
import { BlockedUrlError, parseWebUrl } from '../../src/node/web-address';

/**
 * The policy that keeps a URL fetch off the machine's own network: only http(s), and only public
 * unicast addresses unless the exact host:port is allowed by configuration. Pure functions, so the
 * rules can be tested without touching the network. What an address is (public, private, ...) is
 * src/node/address-class.ts, shared with the host's OAuth discovery guard.
 */

export { BlockedUrlError, isPublicAddress, parseWebUrl };

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

function isAllowed(url: URL, allow: AllowList): boolean {
  return allow.has(hostPortOf(url));
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
      throw new BlockedUrlError(`refused to connect to ${shown}: ${describeAddress(address)} address. ` + 'fetch_url only reaches public internet addresses.');
    }
  }
}
