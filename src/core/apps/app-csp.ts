import { addressClass } from '../../node/address-class';

/**
 * The Content-Security-Policy a view runs under, built from the domains its resource declares in
 * `_meta.ui.csp` (SEP-1865), restrictive by default: no network, no frames, no plugins, no forms,
 * scripts and styles only the view's own (inline, eval, data: and blob:), workers only from the view's
 * own blobs. The sandbox proxy is served with it as a response header (the view, a srcdoc frame inside
 * the proxy, inherits it; the header also keeps the view from navigating its own
 * frame elsewhere) and the view's HTML carries it again as a <meta>.
 *
 * Never `'self'`: the proxy's own origin is the extension's loopback listener, or in a browser-served
 * VS Code the workbench itself, and neither is a place a view may reach. A declared domain is taken only
 * as an https or wss origin (a `*.` wildcard subdomain allowed) of a public host: a view must not be
 * able to declare its way onto this machine or its network.
 */
export interface DeclaredCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

export interface AppCsp {
  /** The policy, as one header value (without the sandbox directive the proxy adds). */
  policy: string;
  /** What was taken, per kind, for the view's host context and the log. */
  allowed: { connectDomains: string[]; resourceDomains: string[]; frameDomains: string[]; baseUriDomains: string[] };
  /** Declared entries that were refused, with why: logged, never applied. */
  refused: string[];
}

const KINDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const MAX_DOMAINS = 50;

export function appCsp(declared: DeclaredCsp | undefined): AppCsp {
  const refused: string[] = [];
  const allowed = { connectDomains: [] as string[], resourceDomains: [] as string[], frameDomains: [] as string[], baseUriDomains: [] as string[] };
  for (const kind of KINDS) {
    const list = declared?.[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      refused.push(`${kind}: not a list`);
      continue;
    }
    for (const entry of list.slice(0, MAX_DOMAINS)) {
      const origin = typeof entry === 'string' ? cspOrigin(entry) : undefined;
      if (origin && !allowed[kind].includes(origin)) allowed[kind].push(origin);
      else if (!origin) refused.push(`${kind}: ${JSON.stringify(entry).slice(0, 200)}`);
    }
    if (list.length > MAX_DOMAINS) refused.push(`${kind}: ${list.length - MAX_DOMAINS} more than ${MAX_DOMAINS}`);
  }
  const res = allowed.resourceDomains.join(' ');
  const or = (list: string[], none: string): string => (list.length > 0 ? list.join(' ') : none);
  const policy = [
    `default-src 'none'`,
    // data: and blob: scripts are code the view already holds (it may run any inline script): they reach nothing new.
    // pdf.js needs them (its worker imports its code from a data: URL). eval and new Function add nothing either: code
    // a view makes at run time it could already run as a blob: script, under this same policy (three.js scenes a
    // model writes are run so).
    `script-src 'unsafe-inline' 'unsafe-eval' data: blob: ${res}`,
    `style-src 'unsafe-inline' ${res}`,
    `img-src data: ${res}`,
    `font-src data: ${res}`,
    `media-src data: ${res}`,
    // Workers the view makes from its own blobs (pdf.js renders in one): a blob worker inherits this policy, so it
    // reaches no more of the network than the view (the hostile app's test tries).
    `worker-src blob:`,
    `connect-src ${or(allowed.connectDomains, `'none'`)}`,
    `frame-src ${or(allowed.frameDomains, `'none'`)}`,
    `object-src 'none'`,
    `base-uri ${or(allowed.baseUriDomains, `'none'`)}`,
    `form-action 'none'`,
  ]
    .map((d) => d.trim())
    .join('; ');
  return { policy, allowed, refused };
}

/**
 * A declared domain as a CSP source, or undefined when it is not one a view may have: an https or wss
 * origin (no path, query, credentials or quotes) whose host is a public name or a public address.
 */
export function cspOrigin(entry: string): string | undefined {
  const m = /^(https|wss):\/\/(\*\.)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?\/?$/i.exec(entry.trim());
  if (!m) return undefined;
  const [, scheme, wildcard = '', host, port = ''] = m as unknown as [string, string, string | undefined, string, string | undefined];
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!isPublicHost(name)) return undefined;
  if (wildcard && (name.startsWith('[') || !name.includes('.'))) return undefined;
  return `${scheme.toLowerCase()}://${wildcard}${name}${port}`;
}

/** A name with a dot that is not this machine's or a local network's, or a public address. */
function isPublicHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(bare) || bare.includes(':')) return addressClass(bare) === 'public';
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(bare)) return false;
  return !/(^|\.)(localhost|local|internal|lan|home|arpa|localdomain)$/.test(bare);
}
