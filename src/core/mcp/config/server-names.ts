import { BUNDLED_SERVER_NAMES } from '../hub/bundled-servers';
import { sanitizeName } from '../hub/tool-names';

/** Long enough to read, short enough to leave most of a 64-character tool name to the tool. */
export const MAX_SERVER_NAME_LENGTH = 32;

/**
 * A server name that fits in `<server>__<tool>` tool names (`[a-zA-Z0-9_-]`): other characters
 * become `_`, and runs of `_` become one so `__` only ever separates server from tool.
 */
export function safeServerName(key: string): string {
  const name = sanitizeName(key).replace(/_{2,}/g, '_').slice(0, MAX_SERVER_NAME_LENGTH);
  return name === '_' ? 'server' : name;
}

/**
 * Gives each key, in order, a safe name no earlier key and no bundled server has: the first keeps
 * `github`, later ones become `github-2`, `github-3`. Compared without case, so the model never sees
 * two servers told apart by case alone. The same keys in the same order always get the same names.
 */
export function uniqueServerNames(keys: readonly string[], reserved: readonly string[] = BUNDLED_SERVER_NAMES): string[] {
  const taken = new Set(reserved.map((r) => r.toLowerCase()));
  return keys.map((key) => {
    const base = safeServerName(key);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) {
      name = `${base.slice(0, MAX_SERVER_NAME_LENGTH - String(n).length - 1)}-${n}`;
    }
    taken.add(name.toLowerCase());
    return name;
  });
}
