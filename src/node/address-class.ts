import ipaddr from 'ipaddr.js';

/**
 * What kind of network an IP address is on, for the guards that keep requests off the machine's own
 * network: the web server's fetch_url (servers/lib/net-guard.ts) and the host's OAuth discovery
 * (src/core/mcp/oauth/discovery-rules.ts). Pure functions, so the rules can be tested without touching
 * the network.
 */

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * `loopback`: this machine. `private`: a local network (RFC 1918, carrier-grade NAT, IPv6 unique
 * local). `public`: globally routable unicast. `special`: everything else (link-local and the cloud
 * metadata address on it, unspecified, multicast, broadcast, documentation and reserved ranges, Teredo),
 * which no request a remote party names should reach.
 */
export type AddressClass = 'loopback' | 'private' | 'public' | 'special';

/** The class of an address (IPv4 or IPv6 text, brackets allowed); text that is no IP address is `special`. */
export function addressClass(address: string): AddressClass {
  const text = unbracket(address);
  // Zone ids (fe80::1%eth0) only make sense on local links.
  if (text.includes('%') || !ipaddr.isValid(text)) return 'special';
  if (isPublicAddress(text)) return 'public';
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return addressClass((parsed as ipaddr.IPv6).toIPv4Address().toString());
  const range = parsed.range();
  if (range === 'loopback') return 'loopback';
  if (range === 'private' || range === 'carrierGradeNat' || range === 'uniqueLocal') return 'private';
  return 'special';
}

/** True when an address (IPv4 or IPv6 text, brackets allowed) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const text = unbracket(address);
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

function unbracket(address: string): string {
  return address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
}
