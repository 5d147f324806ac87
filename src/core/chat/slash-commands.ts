import type { ServerStatus } from '../mcp/types';
import { messageOf } from '../../node/error-message';
import type { ToolHost } from '../agent/types';
import type { ToolChoices } from '../tool-offer/tool-choices';
import { viewUriOf } from '../mcp/requests/app-visibility';
import { STATE_TEXT, statesSummary, toolStates, type ToolState } from '../tool-offer/tool-states';
import { startingServers, untilReadyEnough, type ReadinessSource } from '../mcp/hub/readiness';

/** What the slash commands read of the MCP host (McpHub provides it). */
export interface SlashHub extends Partial<Pick<ReadinessSource, 'on' | 'settled'>> {
  statuses(): ServerStatus[];
  status(name: string): ServerStatus | undefined;
}

/** The tools as the model sees them (the host the chat runs with), and the person's choices about them. */
export interface SlashTools {
  host: Pick<ToolHost, 'tools' | 'pinned'>;
  choices?: ToolChoices;
}

/** /tools lists at most this many tools of one server (the loaded first); the Tools view has them all. */
const MAX_LISTED_PER_SERVER = 100;

/**
 * What a front end does for the commands whose effect is its own: the terminal prints a resource
 * where the chat attaches it, asks for a missing prompt argument or names it, lists models or opens
 * a picker. Everything else (parsing, checking, the listings) is here, shared.
 */
export interface SlashActions {
  hub: SlashHub;
  tools: SlashTools;
  /** Shows lines to the person (a listing, a usage line, an error); never sent to the model. */
  say(lines: string[]): void;
  /** `/model [name]`. */
  model(name: string | undefined): Promise<void>;
  /** `/clear`: a new conversation. */
  clear(): Promise<void>;
  /** `/resource <server> <uri>`, after checking the server is ready. */
  resource(server: string, uri: string): Promise<void>;
  /** `/prompt <server>/<name> [k=v ...]`: the prompt exists; `missing` are its required arguments not given. */
  prompt(server: string, name: string, args: Record<string, string>, missing: string[]): Promise<void>;
}

export interface SlashCommand {
  name: string;
  usage: string;
  summary: string;
  /** Whether it takes arguments (the composer then completes them instead of running it). */
  takesArgs: boolean;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: '/tools', usage: '/tools', summary: 'the tools of every ready server', takesArgs: false },
  { name: '/resources', usage: '/resources', summary: 'resources and resource templates', takesArgs: false },
  { name: '/prompts', usage: '/prompts', summary: 'prompts and their arguments', takesArgs: false },
  {
    name: '/resource',
    usage: '/resource <server> <uri>',
    summary: 'a resource: attached to your next message in the chat, printed in the terminal',
    takesArgs: true,
  },
  { name: '/prompt', usage: '/prompt <server>/<name> [k=v ...]', summary: 'send a prompt to the model (quote values with spaces: k="a b")', takesArgs: true },
  { name: '/clear', usage: '/clear', summary: 'start a new conversation', takesArgs: false },
  { name: '/model', usage: '/model [name]', summary: 'show or change the model', takesArgs: false },
  { name: '/help', usage: '/help', summary: 'this list', takesArgs: false },
];

/** The research seed's names for two commands, accepted beside ours (not offered in the composer's list). */
const SLASH_ALIASES: Readonly<Record<string, string>> = { '/use-prompt': '/prompt', '/read-resource': '/resource' };

export type SlashLine = { kind: 'text'; text: string } | { kind: 'command'; name: string; args: string[] };

/** A line as typed: a command, or text for the model (`//x` is the text `/x`). */
export function parseSlash(text: string): SlashLine {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return { kind: 'text', text };
  if (trimmed.startsWith('//')) return { kind: 'text', text: trimmed.slice(1) };
  const [typed = '', ...args] = words(trimmed);
  return { kind: 'command', name: SLASH_ALIASES[typed] ?? typed, args };
}

/**
 * Runs a line that may be a slash command. Returns the text to send to the model instead, or
 * undefined when the line was a command (known or not): no command ever reaches the model as text.
 */
/** The commands that list or use what the servers offer. */
const READS_SERVERS = new Set(['/tools', '/resources', '/prompts', '/resource', '/prompt']);

export async function runSlash(text: string, actions: SlashActions): Promise<string | undefined> {
  const line = parseSlash(text);
  if (line.kind === 'text') return line.text;
  const { name, args } = line;
  try {
    // Right after a start some servers may still be starting: what the servers offer is listed once they are up.
    const { hub } = actions;
    if (READS_SERVERS.has(name) && startingServers(hub.statuses()).length > 0 && hub.on && hub.settled) {
      await untilReadyEnough({ statuses: () => hub.statuses(), on: hub.on.bind(hub), settled: hub.settled.bind(hub) });
    }
    switch (name) {
      case '/help':
        actions.say(helpLines());
        return undefined;
      case '/tools':
        actions.say(toolLines(actions.hub, actions.tools));
        return undefined;
      case '/resources':
        actions.say(resourceLines(actions.hub));
        return undefined;
      case '/prompts':
        actions.say(promptLines(actions.hub));
        return undefined;
      case '/resource':
        return await resource(actions, args);
      case '/prompt':
        return await prompt(actions, args);
      case '/clear':
        await actions.clear();
        return undefined;
      case '/model':
        await actions.model(args[0]);
        return undefined;
      default:
        actions.say([`unknown command ${name}; /help lists the commands (start with // to send a line beginning with /)`]);
        return undefined;
    }
  } catch (err) {
    actions.say([`${name} failed: ${messageOf(err)}`]);
    return undefined;
  }
}

function helpLines(): string[] {
  return [
    ...SLASH_COMMANDS.map((c) => `${c.usage.padEnd(34)} ${c.summary}`),
    `${Object.entries(SLASH_ALIASES)
      .map(([alias, name]) => `${alias} works as ${name}`)
      .join(', ')} (the names the research seed uses).`,
    'A line starting with // is sent to the model with one / removed.',
  ];
}

/** The summary line, then each ready server's tools with where they stand for the model (loaded, then turned off, then the rest). */
export function toolLines(hub: SlashHub, tools: SlashTools): string[] {
  const servers = readyServers(hub).filter((s) => s.tools.length > 0);
  if (servers.length === 0) return ['no tools: no server is ready'];
  const states = toolStates(hub.statuses(), tools.host, tools.choices);
  const order: ToolState[] = ['loaded', 'off', 'deferred', 'app-only', 'needs-tasks', 'invalid-schema'];
  const lines = [statesSummary(states)];
  for (const s of servers) {
    const rows = s.tools.map((t) => ({ t, state: states.state(s.name, t) })).sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state));
    lines.push(`${s.name}${tools.choices?.isOff(s.name) ? ' (turned off)' : ''}:`);
    for (const { t, state } of rows.slice(0, MAX_LISTED_PER_SERVER)) {
      const pinned = state === 'loaded' && tools.choices?.isPinned(s.name, t.name) ? ', pinned' : '';
      const view = viewUriOf(t) ? ', interactive view' : '';
      lines.push(`  ${s.name}__${t.name}  [${STATE_TEXT[state]}${pinned}${view}]  ${firstLine(t.description)}`.trimEnd());
    }
    if (rows.length > MAX_LISTED_PER_SERVER)
      lines.push(`  … and ${(rows.length - MAX_LISTED_PER_SERVER).toLocaleString('en-US')} more (the Tools view lists them all)`);
  }
  if (servers.some((s) => s.tools.some((t) => viewUriOf(t))))
    lines.push('A tool with an interactive view (MCP App) draws it under its card in the VS Code chat; a terminal cannot draw it.');
  return lines;
}

function resourceLines(hub: SlashHub): string[] {
  const lines = readyServers(hub).flatMap((s) => [
    ...s.resources.map((r) => `${s.name} ${r.uri}  ${r.title ?? r.name}`),
    ...s.resourceTemplates.map((t) => `${s.name} ${t.uriTemplate}  (template) ${t.title ?? t.name}`),
  ]);
  return lines.length > 0 ? lines : ['no resources'];
}

function promptLines(hub: SlashHub): string[] {
  const lines = readyServers(hub).flatMap((s) =>
    s.prompts.map((p) => {
      const args = (p.arguments ?? []).map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ');
      return `/prompt ${s.name}/${p.name} ${args}  ${firstLine(p.description)}`.trimEnd();
    }),
  );
  return lines.length > 0 ? lines : ['no prompts'];
}

async function resource(actions: SlashActions, args: string[]): Promise<undefined> {
  // One argument is the seed's `server/uri`, or a URI alone, looked up among the servers' resources and templates.
  const [server, uri] = args.length === 1 ? (serverSlashUri(actions.hub, args[0]!) ?? [serverOfUri(actions.hub, args[0]!), args[0]]) : args;
  if (args.length === 1 && !server) {
    actions.say([`no ready server lists ${args[0]} (or a template it fits); /resources lists them, or name the server: /resource <server> <uri>`]);
    return undefined;
  }
  if (!server || !uri || args.length > 2) {
    actions.say(['usage: /resource [<server>] <uri>']);
    return undefined;
  }
  const status = actions.hub.status(server);
  if (status?.state !== 'ready') {
    actions.say([status ? `server ${server} is not ready (${status.state})` : `there is no server ${server}; /resources lists them`]);
    return undefined;
  }
  await actions.resource(server, uri);
  return undefined;
}

async function prompt(actions: SlashActions, args: string[]): Promise<undefined> {
  const [given, ...pairs] = args;
  // A name alone is looked up among the servers' prompts (the seed's prompts have no server part).
  const ref = given && !given.includes('/') ? serverOfPrompt(actions.hub, given) : given;
  const slash = ref?.indexOf('/') ?? -1;
  if (!ref || slash <= 0) {
    actions.say([given ? `no single ready server has a prompt ${given}; /prompts lists them` : 'usage: /prompt [<server>/]<name> [name=value ...]']);
    return undefined;
  }
  const server = ref.slice(0, slash);
  const name = ref.slice(slash + 1);
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      actions.say([`"${pair}" is not name=value`]);
      return undefined;
    }
    values[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const status = actions.hub.status(server);
  const found = status?.state === 'ready' ? status.prompts.find((p) => p.name === name) : undefined;
  if (!found) {
    actions.say([`server ${server} has no prompt ${name}; /prompts lists them`]);
    return undefined;
  }
  const missing = (found.arguments ?? []).filter((a) => a.required && !(a.name in values)).map((a) => a.name);
  await actions.prompt(server, name, values, missing);
  return undefined;
}

/** The line a prompt run with these arguments is shown as (and recalled as): `/prompt s/n k="a b"`. */
export function promptCommand(server: string, name: string, args: Record<string, string>): string {
  const pairs = Object.entries(args).map(([k, v]) => (/[\s"]/.test(v) || v === '' ? `${k}="${v.replace(/"/g, "'")}"` : `${k}=${v}`));
  return [`/prompt ${server}/${name}`, ...pairs].join(' ');
}

/** `server/name` of the one ready server that has the prompt; undefined when none or several do. */
function serverOfPrompt(hub: SlashHub, name: string): string | undefined {
  const having = readyServers(hub).filter((s) => s.prompts.some((p) => p.name === name));
  return having.length === 1 ? `${having[0]!.name}/${name}` : undefined;
}

/**
 * `research/papers://folders`, as the research seed writes it: a server's name, a slash, the URI. A URI
 * never reads that way (its scheme, ending in a colon, comes before any slash), so the two cannot be confused.
 */
function serverSlashUri(hub: SlashHub, arg: string): [string, string] | undefined {
  const slash = arg.indexOf('/');
  if (slash <= 0 || arg.slice(0, slash).includes(':')) return undefined;
  const server = arg.slice(0, slash);
  return hub.status(server) ? [server, arg.slice(slash + 1)] : undefined;
}

/** The one ready server that lists the URI, or else has a template whose fixed start it begins with. */
function serverOfUri(hub: SlashHub, uri: string): string | undefined {
  const ready = readyServers(hub);
  const listing = ready.filter((s) => s.resources.some((r) => r.uri === uri));
  if (listing.length > 0) return listing.length === 1 ? listing[0]!.name : undefined;
  const fitting = ready.filter((s) => s.resourceTemplates.some((t) => uri.startsWith(t.uriTemplate.split('{')[0]!)));
  return fitting.length === 1 ? fitting[0]!.name : undefined;
}

export function readyServers(hub: SlashHub): ServerStatus[] {
  return hub.statuses().filter((s) => s.state === 'ready');
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
