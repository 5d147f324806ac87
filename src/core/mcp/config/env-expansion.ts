export interface EnvExpansion {
  value: string;
  /** Variables that were unset (or empty) and had no `:-default`. */
  missing: string[];
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Claude Code's expansion in `.mcp.json`: `${VAR}` is the variable's value, `${VAR:-default}` the value
 * or, when VAR is unset or empty (as in a shell), the default. One pass: a value is never expanded again.
 * A `${VAR}` that is unset is reported, as Claude Code refuses such a config.
 */
export function expandEnvReferences(text: string, env: NodeJS.ProcessEnv): EnvExpansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (fallback !== undefined) return v ? v : fallback;
    if (v === undefined) missing.push(name);
    return v ?? '';
  });
  return { value, missing };
}
