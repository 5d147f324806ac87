import { addressClass, describeAddress, type AddressClass } from '../../../node/address-class';
import { safeUrl } from '../transport/http-url';

/** A URL and every address its host resolved to (an IP literal is its own one address). */
export interface Resolved {
  url: URL;
  addresses: readonly string[];
}

/** How near this computer each class is; `special` addresses are never reached on a server's word. */
const NEARNESS: Record<Exclude<AddressClass, 'special'>, number> = { public: 0, private: 1, loopback: 2 };
const NAMED: Record<Exclude<AddressClass, 'special'>, string> = {
  public: 'on the public internet',
  private: 'on a private network',
  loopback: 'on this computer',
};

/**
 * Why the host must not fetch a URL that an MCP server's OAuth metadata named (an authorization
 * server, its metadata, registration or token endpoint, resource metadata elsewhere); undefined when it
 * may. The person chose the server's URL, so its own origin is always fine, plain http included (an
 * intranet server at http://10.0.0.5 is theirs to use). Anything else is the server's word, and may
 * lead this computer no nearer to itself than the server is:
 * - https, as the browser's rule for the authorization page (authorization-url.ts): plain http only to
 *   this computer, since anything else would carry codes and tokens readable on the way;
 * - a public server may name public addresses only; a server on a private network (the person's
 *   intranet, https://10.0.0.5) may name that network and the internet, not this computer; a server on
 *   this computer may name anything but the special ranges. So a public server's metadata cannot point
 *   the host at 127.0.0.1, the router or a colleague's machine, and an intranet one cannot reach
 *   services that listen only on this computer;
 * - link-local (169.254.169.254, the cloud metadata service), multicast, unspecified and reserved
 *   addresses never, whoever names them.
 * Every address the name resolved to counts: the connection could land on any of them. The server's
 * own class is that of its most public address, so a name that resolves both ways earns no more trust
 * than its public side.
 */
export function discoveryRefusal(server: Resolved, target: Resolved): string | undefined {
  const { url } = target;
  if (url.origin === server.url.origin) return undefined;
  const shown = safeUrl(url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${shown} is not an http(s) address`;
  if (url.username || url.password) return `${shown} has a user name or password in it`;
  if (target.addresses.length === 0) return `${url.hostname} did not resolve to any address`;
  const special = target.addresses.find((a) => addressClass(a) === 'special');
  if (special !== undefined) return `${shown} is at ${special} (${describeAddress(special)}), which is never reached on a server's word`;
  const classes = target.addresses.map((a) => addressClass(a) as Exclude<AddressClass, 'special'>);
  if (url.protocol === 'http:' && classes.some((c) => c !== 'loopback'))
    return `${shown} is plain http off this computer (only https, or http to this computer, is used for signing in)`;
  const serverClass = mostPublic(server.addresses);
  const nearest = classes.reduce((a, b) => (NEARNESS[b] > NEARNESS[a] ? b : a));
  if (NEARNESS[nearest] > NEARNESS[serverClass]) {
    const at = target.addresses[classes.indexOf(nearest)];
    return `${shown} is ${NAMED[nearest]} (${at}) while the server itself is ${NAMED[serverClass]}; a server's metadata may not lead this computer nearer to itself than the server is`;
  }
  return undefined;
}

/** The class a server's addresses earn: the most public of them (special ones count as public: they earn nothing). */
function mostPublic(addresses: readonly string[]): Exclude<AddressClass, 'special'> {
  const classes = addresses.map(addressClass).map((c) => (c === 'special' ? 'public' : c));
  if (classes.length === 0) return 'public';
  return classes.reduce((a, b) => (NEARNESS[b] < NEARNESS[a] ? b : a));
}
