import { OAuthProblem } from './oauth-errors';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The authorization URL comes from metadata the remote server controls, and it is handed to a browser:
 * only https (http for a server on this machine) is let through. A `javascript:` URL would run script,
 * `file:` would open local files, and a custom scheme would launch whatever program claims it.
 */
export function checkAuthorizationUrl(url: URL): void {
  const local = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol === 'https:' || local) {
    if (url.username || url.password)
      throw new OAuthProblem(`its authorization server gave an authorization address with a user name or password in it; refused`, 'refused');
    return;
  }
  const scheme = url.protocol.replace(/:$/, '');
  throw new OAuthProblem(
    `its authorization server's metadata gives an authorization address with the scheme "${scheme}:", which is never opened (only https, or http on this machine); refused. Check the server's OAuth metadata or ask its operator.`,
    'refused',
  );
}
