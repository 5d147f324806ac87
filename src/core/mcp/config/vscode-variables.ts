import { basename, sep } from 'node:path';
import type { Template, TemplatePart } from './template';

/** What VS Code's variables in mcp.json stand for. */
export interface VariableContext {
  workspaceFolder: string;
  userHome: string;
  env: NodeJS.ProcessEnv;
}

export interface Expanded {
  template: Template;
  /** `${...}` references that are not supported here; they are left as written. */
  unknown: string[];
}

const REFERENCE = /\$\{([^${}]+)\}/g;

/**
 * Resolves `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`
 * (`${/}`) and `${env:NAME}` (empty when unset, as in VS Code) in one pass, so a resolved value is never
 * scanned again; `${input:id}` becomes a part of its own for later. `${env:NAME}` and `${userHome}` are
 * the person's, not the file's: they stay parts that remember their reference, so the consent question
 * shows `${env:GITHUB_TOKEN}` and never the token. The workspace folder's own path is not kept apart:
 * it is the folder the person opened, already shown as where the server runs, and no secret.
 */
export function expandVscodeVariables(text: string, ctx: VariableContext): Expanded {
  const template: TemplatePart[] = [];
  const unknown: string[] = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    const [whole, name = ''] = match;
    const at = match.index;
    push(template, text.slice(last, at));
    last = at + whole.length;
    const input = /^input:(.+)$/.exec(name);
    if (input) {
      template.push({ input: input[1] ?? '' });
      continue;
    }
    const value = variable(name, ctx);
    if (value === undefined) unknown.push(whole);
    if (value !== undefined && isPersons(name)) template.push({ variable: whole, value });
    else push(template, value ?? whole);
  }
  push(template, text.slice(last));
  return { template: template.length ? template : [''], unknown };
}

function isPersons(name: string): boolean {
  return name.startsWith('env:') || name === 'userHome';
}

function variable(name: string, ctx: VariableContext): string | undefined {
  if (name.startsWith('env:')) return ctx.env[name.slice(4)] ?? '';
  switch (name) {
    case 'workspaceFolder':
      return ctx.workspaceFolder;
    case 'workspaceFolderBasename':
      return basename(ctx.workspaceFolder);
    case 'userHome':
      return ctx.userHome;
    case 'pathSeparator':
    case '/':
      return sep;
    default:
      return undefined;
  }
}

/** Adjacent strings are joined so a template with no inputs is one string. */
function push(parts: TemplatePart[], text: string): void {
  if (!text) return;
  const prev = parts[parts.length - 1];
  if (typeof prev === 'string') parts[parts.length - 1] = prev + text;
  else parts.push(text);
}
