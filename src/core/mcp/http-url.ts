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
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '…');
  url.hash = '';
  return url.href;
}
