import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The version in the package.json beside dist/ (the checkout's, or the installed extension's): read at
 * run time, since the bundle's layers may not import it.
 */
export function cliVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
