import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { escapeControls as printable } from './cli-escape';
import type { McpHub } from './core/mcp/hub';
import { messageOf } from './core/mcp/errors';

/** What the REPL's slash commands act on. */
export interface SlashContext {
  hub: McpHub;
  line(text: string): void;
  model(): string;
  /** The models the key can use, for /model without a name. */
  models(): Promise<Array<{ id: string; name: string }>>;
  setModel(model: string): void;
  /** Starts a new conversation. */
  clear(): Promise<void>;
  /** Runs a turn with this text as the person's message (what /prompt does with a prompt). */
  send(text: string): Promise<void>;
}

const HELP = [
  '/tools                            the tools of every ready server',
  '/resources                        resources and resource templates',
  '/prompts                          prompts and their arguments',
  '/resource <server> <uri>          print a resource',
  '/prompt <server>/<name> [k=v ...] send a prompt to the model (quote values with spaces: k="a b")',
  '/clear                            start a new conversation',
  '/model [name]                     show or change the model',
  '/help                             this list',
  'A line starting with // is sent to the model with one / removed.',
];

/**
 * The REPL's slash commands. Returns the text to send to the model instead, or undefined when the line
 * was a command (known or not): no command ever reaches the model as text.
 */
export async function slashCommand(text: string, ctx: SlashContext): Promise<string | undefined> {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return text;
  if (trimmed.startsWith('//')) return trimmed.slice(1);
  const [command = '', ...rest] = words(trimmed);
  try {
    switch (command) {
      case '/help':
        for (const l of HELP) ctx.line(l);
        return undefined;
      case '/tools':
        return listTools(ctx);
      case '/resources':
        return listResources(ctx);
      case '/prompts':
        return listPrompts(ctx);
      case '/resource':
        return await showResource(ctx, rest);
      case '/prompt':
        return await usePrompt(ctx, rest);
      case '/clear':
        await ctx.clear();
        ctx.line('[new conversation]');
        return undefined;
      case '/model':
        return await model(ctx, rest);
      default:
        ctx.line(`unknown command ${printable(command)}; /help lists the commands (start with // to send a line beginning with /)`);
        return undefined;
    }
  } catch (err) {
    ctx.line(`${printable(command)} failed: ${printable(messageOf(err))}`);
    return undefined;
  }
}

function listTools(ctx: SlashContext): undefined {
  const tools = ctx.hub.tools({ max: Infinity });
  if (tools.length === 0) ctx.line('no tools: no server is ready');
  for (const t of tools) ctx.line(`${printable(t.qualifiedName)}  ${printable(firstLine(t.tool.description))}`);
  return undefined;
}

function listResources(ctx: SlashContext): undefined {
  let any = false;
  for (const s of ctx.hub.statuses().filter((s) => s.state === 'ready')) {
    for (const r of s.resources) ctx.line(`${printable(s.name)} ${printable(r.uri)}  ${printable(r.title ?? r.name)}`);
    for (const t of s.resourceTemplates) ctx.line(`${printable(s.name)} ${printable(t.uriTemplate)}  (template) ${printable(t.title ?? t.name)}`);
    any ||= s.resources.length + s.resourceTemplates.length > 0;
  }
  if (!any) ctx.line('no resources');
  return undefined;
}

function listPrompts(ctx: SlashContext): undefined {
  let any = false;
  for (const s of ctx.hub.statuses().filter((s) => s.state === 'ready')) {
    for (const p of s.prompts) {
      const args = (p.arguments ?? []).map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ');
      ctx.line(`/prompt ${printable(`${s.name}/${p.name}`)} ${printable(args)}  ${printable(firstLine(p.description))}`.trimEnd());
      any = true;
    }
  }
  if (!any) ctx.line('no prompts');
  return undefined;
}

async function showResource(ctx: SlashContext, args: string[]): Promise<undefined> {
  const [server, uri] = args;
  if (!server || !uri || args.length > 2) {
    ctx.line('usage: /resource <server> <uri>');
    return undefined;
  }
  const result: ReadResourceResult = await ctx.hub.readResource(server, uri);
  for (const c of result.contents) {
    if ('text' in c) ctx.line(printable(c.text));
    else ctx.line(`[${printable(c.mimeType ?? 'binary')} content, ${Math.floor((c.blob.length * 3) / 4)} bytes]`);
  }
  return undefined;
}

async function usePrompt(ctx: SlashContext, args: string[]): Promise<string | undefined> {
  const [ref, ...pairs] = args;
  const slash = ref?.indexOf('/') ?? -1;
  if (!ref || slash <= 0) {
    ctx.line('usage: /prompt <server>/<name> [name=value ...]');
    return undefined;
  }
  const server = ref.slice(0, slash);
  const name = ref.slice(slash + 1);
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      ctx.line(`"${printable(pair)}" is not name=value`);
      return undefined;
    }
    values[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const prompt = ctx.hub.status(server)?.prompts.find((p) => p.name === name);
  if (!prompt) {
    ctx.line(`server ${printable(server)} has no prompt ${printable(name)}; /prompts lists them`);
    return undefined;
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in values)).map((a) => a.name);
  if (missing.length > 0) {
    ctx.line(`prompt ${printable(ref)} needs ${printable(missing.map((m) => `${m}=…`).join(' '))}`);
    return undefined;
  }
  const result: GetPromptResult = await ctx.hub.getPrompt(server, name, values);
  const text = promptText(result);
  ctx.line(`[prompt ${printable(ref)}: ${result.messages.length} message${result.messages.length === 1 ? '' : 's'}]`);
  await ctx.send(text);
  return undefined;
}

async function model(ctx: SlashContext, args: string[]): Promise<undefined> {
  const [chosen] = args;
  if (chosen) {
    ctx.setModel(chosen);
    ctx.line(`[model: ${printable(chosen)}]`);
    return undefined;
  }
  ctx.line(`model: ${printable(ctx.model())}`);
  const models = await ctx.models();
  for (const m of models) ctx.line(`  ${printable(m.id)}  ${printable(m.name)}`);
  return undefined;
}

/** A prompt's messages as one message: each keeps its role as a heading when there are several roles. */
function promptText(result: GetPromptResult): string {
  const roles = new Set(result.messages.map((m) => m.role));
  return result.messages
    .map((m) => {
      const c = m.content;
      const body =
        c.type === 'text'
          ? c.text
          : c.type === 'resource'
            ? 'text' in c.resource
              ? `[resource ${c.resource.uri}]\n${c.resource.text}`
              : `[resource ${c.resource.uri}, binary]`
            : c.type === 'resource_link'
              ? `[resource ${c.uri}]`
              : `[${c.type}]`;
      return roles.size > 1 ? `${m.role}:\n${body}` : body;
    })
    .join('\n\n');
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '').split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

/** Splits on spaces, keeping "quoted parts" (k="a b") together. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:[^\s"]+|"[^"]*")+/g)) out.push(m[0].replace(/"([^"]*)"/g, '$1'));
  return out;
}
