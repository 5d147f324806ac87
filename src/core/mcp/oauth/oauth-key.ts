import { fetchableUrl } from '../transport/http-url';

/**
 * The key a server's authorization is kept under: its URL as fetched (without any user name or
 * password), so the CLI and the extension find the same record and Sign Out finds what sign-in stored.
 */
export function oauthKey(configUrl: string): string {
  return fetchableUrl(configUrl).url.href;
}
