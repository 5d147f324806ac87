// Where the real-VS-Code rig finds the repo and leaves screenshots and logs for people to look at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export { repoRoot } from '../support/repo-root';
import { repoRoot } from '../support/repo-root';

/** `.test-artifacts/` in the repo, or MCP_AGENT_ARTIFACTS_DIR. */
function artifactsDir(): string {
  return process.env.MCP_AGENT_ARTIFACTS_DIR ?? join(repoRoot(), '.test-artifacts');
}

export function screenshotsDir(): string {
  const dir = join(artifactsDir(), 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function logsDir(): string {
  const dir = join(artifactsDir(), 'logs');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A name safe to use as a file name. */
export function slug(name: string): string {
  return (
    name
      .replace(/[^a-zA-Z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'unnamed'
  );
}
