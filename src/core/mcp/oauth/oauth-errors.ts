/**
 * Why an authorization did not happen, in words a person can act on. The HTTP transport reports these
 * as they are (http-failure.ts) instead of a bare "401".
 */
export class OAuthProblem extends Error {
  override name = 'OAuthProblem';
  constructor(
    message: string,
    /** `refused`: the server's metadata is unsafe; `declined`: the person said no; `failed`: the flow broke (timeout, error from the server). */
    readonly kind: 'refused' | 'declined' | 'failed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The SDK refuses malformed or unsafe authorization-server metadata (a `javascript:` endpoint, a
 * missing field) by throwing its zod error, whose message is a JSON dump: said in a line instead.
 */
export function metadataRefusal(err: unknown, shown: string): OAuthProblem | undefined {
  const issues = (err as { issues?: unknown })?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const what = issues
    .slice(0, 3)
    .map((i: { path?: unknown[]; message?: string }) => `${(i.path ?? []).join('.') || 'metadata'}: ${i.message ?? 'invalid'}`)
    .join('; ');
  return new OAuthProblem(
    `signing in to ${shown} was refused: its OAuth metadata is unsafe or malformed (${what}). Check the server's OAuth metadata or ask its operator.`,
    'refused',
    { cause: err },
  );
}
