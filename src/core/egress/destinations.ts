import { readWebUrl, webHost } from '../../node/web-address';

/**
 * The places a tool call's arguments would send it, read the way the receiving tool reads them: every string at
 * any depth (keys too), in each form a URL or a tool decodes it to (the parser's own normalisations, percent
 * encoding applied more than once, JSON and JavaScript escapes), URLs inside other URLs' queries, and the
 * addresses that are not URL-shaped (a `host` argument, `git@host:repo`, an e-mail address, `ssh://`). A host
 * found here is compared, never trusted: reading more than the tool would costs at most a question.
 */

export interface Destination {
  /** The host as a connection would name it (the URL parser's form; see web-address.ts). */
  host: string;
  /** The text it was read from, for the person to judge (a query string carrying data stands out). */
  spelled: string;
}

/** Past this much text in one call the guard reads no further and says so (the call asks). */
const MAX_READ_CHARS = 4_000_000;

/** Arguments whose value is itself an address (a `host`, a `to`, an `endpoint`), bare host names included. */
const ADDRESS_KEY =
  /^(hosts?|host_?names?|servers?|domains?|address(es)?|addr|endpoints?|remotes?|origins?|targets?|to|cc|bcc|recipients?|emails?|base_?url|urls?|uris?|links?|webhooks?(_url)?|callback(_url)?|proxy)$/i;

/** Characters the WHATWG parser drops from anywhere in a URL before it reads it. */
const PARSER_DROPS = /[\t\n\r]/g;
/** Where a URL written inside other text ends for a tool that splits words (a shell, a code string). */
const URL_END = /[\s"'<>`{}|^]/;
/** A web scheme with the tabs and newlines the parser ignores spelled into it, at a word's start. */
const WEB_SCHEME = /(?<![A-Za-z0-9+.-])(?:h[\t\n\r]*t[\t\n\r]*t[\t\n\r]*p[\t\n\r]*(?:s[\t\n\r]*)?|w[\t\n\r]*s[\t\n\r]*(?:s[\t\n\r]*)?):/gi;
/** Any other scheme with an authority (`ssh://`, `ftp://`, `postgres://`, `git://`). */
const AUTHORITY_SCHEME = /(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{1,30}):\/\/([^\s/?#"'<>`]+)/gi;
/** Schemes whose "host" is a name inside the editor or a server (`ui://app/view`, `file:///x`), not a place on a network. */
const LOCAL_SCHEMES: ReadonlySet<string> = new Set(['file', 'ui', 'vscode', 'vscode-remote', 'command', 'data', 'blob', 'about', 'javascript', 'mcp-agent']);
/** `user@host:path` as git and scp write it, and `user@host` as mail does. */
const AT_HOST =
  /(?<![\w.+-])[\w.+-]{1,64}@((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62}|\[[0-9a-f:.]+\]|\d{1,3}(?:\.\d{1,3}){3})(?=[:/\s"'>,;)\]]|$)/gi;
/** A bare host name or address, as an address argument holds it. */
const BARE_HOST = /^\[?[a-z0-9.:-]+\]?(?::\d{1,5})?$/i;

/** Every place the call's input would reach. `truncated` when it held more text than the guard reads. */
export function destinationsIn(input: unknown): { destinations: Destination[]; truncated: boolean } {
  const found = new Map<string, Destination>();
  const add = (host: string, spelled: string): void => {
    if (host !== '' && !found.has(host)) found.set(host, { host, spelled: spelled.length > 300 ? `${spelled.slice(0, 300)}…` : spelled });
  };
  let budget = MAX_READ_CHARS;
  const stack: Array<{ value: unknown; key?: string }> = [{ value: input }];
  while (stack.length > 0) {
    const { value, key } = stack.pop()!;
    if (typeof value === 'string') {
      budget -= value.length;
      if (budget < 0) return { destinations: [...found.values()], truncated: true };
      readString(value, key, add);
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, key });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        stack.push({ value: k });
        stack.push({ value: v, key: k });
      }
    }
  }
  return { destinations: [...found.values()], truncated: false };
}

/** The hosts in one piece of text (what the person typed is read the same way, for the hosts they name). */
export function hostsInText(text: string): Destination[] {
  const found: Destination[] = [];
  readString(text, undefined, (host, spelled) => found.push({ host, spelled }));
  return found;
}

function readString(value: string, key: string | undefined, add: (host: string, spelled: string) => void): void {
  for (const form of decodedForms(value)) {
    const whole = readWebUrl(form.trim());
    if (whole) addUrl(whole, form, add);
    for (const candidate of urlsWrittenIn(form)) {
      const url = readWebUrl(candidate);
      if (url) addUrl(url, candidate, add);
    }
    for (const m of form.matchAll(AUTHORITY_SCHEME)) {
      const host = LOCAL_SCHEMES.has(m[1]!.toLowerCase()) ? undefined : authorityHost(m[2]!);
      if (host) add(host, m[0]);
    }
    for (const m of form.matchAll(AT_HOST)) {
      const host = hostOfName(m[1]!);
      if (host) add(host, m[0]);
    }
    if (key !== undefined && ADDRESS_KEY.test(key) && BARE_HOST.test(form.trim())) {
      const host = hostOfName(form.trim());
      if (host) add(host, form.trim());
    }
  }
}

/** A URL's host, and the hosts of URLs inside its query and fragment (a named host that redirects onwards). */
function addUrl(url: URL, spelled: string, add: (host: string, spelled: string) => void): void {
  add(webHost(url), spelled);
  for (const [, v] of url.searchParams) {
    const nested = v.startsWith('//') || v.startsWith('\\\\') ? readWebUrl(v, 'http://x') : undefined;
    if (nested) add(webHost(nested), v);
  }
}

/**
 * The forms a string takes on its way to a host: as written, with what the URL parser drops removed, and
 * decoded as the tools decode it (percent encoding, again and again for a URL nested in a query; JSON and
 * JavaScript escapes such as `\/` and `\u002f`).
 */
export function decodedForms(value: string): string[] {
  const forms = new Set<string>([value]);
  let frontier = [value];
  // Each decoding may reveal another (a tab percent-encoded, a URL escaped then encoded): to a fixed point, bounded.
  for (let round = 0; round < 6 && frontier.length > 0 && forms.size < 64; round++) {
    const next: string[] = [];
    for (const form of frontier)
      for (const decoded of [
        form.replace(PARSER_DROPS, ''),
        /%[0-9a-f]{2}/i.test(form) ? percentDecoded(form) : form,
        /\\/.test(form) ? unescaped(form) : form,
      ])
        if (!forms.has(decoded)) {
          forms.add(decoded);
          next.push(decoded);
        }
    frontier = next;
  }
  return [...forms];
}

/** Percent-decoding that never throws on a stray `%` (each valid escape decoded, the rest kept). */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
  });
}

/** JSON and JavaScript string escapes (`\/`, `\t`, `\"`, `\\`, `\uXXXX`, `\u{X}`, `\xXX`), as a tool that parses the string reads it. */
function unescaped(text: string): string {
  const simple: Record<string, string> = { t: '\t', n: '\n', r: '\r', b: '\b', f: '\f', '/': '/', '"': '"', "'": "'", '\\': '\\' };
  return text.replace(/\\(u\{[0-9a-f]{1,6}\}|u[0-9a-f]{4}|x[0-9a-f]{2}|.)/gi, (whole, e: string) => {
    if (e.length === 1) return simple[e] ?? whole;
    const hex = e.startsWith('u{') ? e.slice(2, -1) : e.slice(1);
    return safeCodePoint(parseInt(hex, 16));
  });
}

function safeCodePoint(n: number): string {
  return n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

/** URLs written inside text: from each web scheme (however spelled) to the end of the word. */
function urlsWrittenIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(WEB_SCHEME)) {
    const rest = text.slice(m.index);
    const end = rest.search(URL_END);
    const word = end < 0 ? rest : rest.slice(0, end);
    // Punctuation that ends a sentence or closes a bracket is not part of the URL, unless the parser takes it (`[::1]`).
    found.push(word, word.replace(/[.,;:!?)\]]+$/, ''));
  }
  return found;
}

/** The host of an authority (`user:pw@host:port`), read by the URL parser; a one-word name (`papers://folders`) is a resource's, not a host. */
function authorityHost(authority: string): string | undefined {
  const url = readWebUrl(`http://${authority.replace(PARSER_DROPS, '')}/`);
  return url ? hostOfName(webHost(url)) : undefined;
}

/** A host name or address on its own, in the parser's form (punycode, dotted IPv4). */
function hostOfName(name: string): string | undefined {
  const bare = name.replace(/:\d{1,5}$/, '');
  const url = readWebUrl(`http://${bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare}/`);
  if (!url) return undefined;
  const host = webHost(url);
  // A single word ("main", "origin") is a git remote's or a branch's name far more often than a host.
  return host.includes('.') || host.includes(':') || host === 'localhost' ? host : undefined;
}
