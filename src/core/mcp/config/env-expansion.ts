import type { Template, TemplatePart } from './template';

export interface EnvExpansion {
  /** Each `${VAR}` a part of its own that keeps its reference (see template.ts); the file's text between them as written. */
  template: Template;
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
  const template: TemplatePart[] = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    const [whole, name = '', fallback] = match;
    if (match.index > last) template.push(text.slice(last, match.index));
    last = match.index + whole.length;
    const v = env[name];
    if (fallback === undefined && v === undefined) missing.push(name);
    const value = fallback !== undefined ? v || fallback : (v ?? '');
    template.push({ variable: whole, value });
  }
  if (last < text.length || template.length === 0) template.push(text.slice(last));
  return { template, missing };
}
