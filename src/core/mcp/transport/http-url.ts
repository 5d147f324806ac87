/**
 * A server URL as it may be shown and logged: without user name, password or query values (an
 * `?api_key=` is a credential as much as a password is). Text that is no URL is cut and shown as is.
 */
export function safeUrl(raw: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    const s = String(raw);
    return s.length > 80 ? `${s.slice(0, 80)}…` : s;
  }
  const keys = [...new Set(url.searchParams.keys())];
  const query = keys.length ? `?${keys.map((k) => `${encodeURIComponent(k)}=…`).join('&')}` : '';
  return `${url.protocol}//${url.host}${url.pathname}${query}`;
}

/**
 * The URL to fetch and the headers to send: user name and password in the URL (which fetch refuses)
 * become Basic authorization, unless the config gives an Authorization header of its own.
 */
export function fetchableUrl(raw: string, headers: Record<string, string> = {}): { url: URL; headers: Record<string, string> } {
  const url = new URL(raw);
  if (!url.username && !url.password) return { url, headers };
  const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  url.username = '';
  url.password = '';
  const hasAuth = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
  return { url, headers: hasAuth ? headers : { ...headers, Authorization: `Basic ${basic}` } };
}
