import type { HubTool, ServerStatus } from '../mcp/types';

/** A server's instructions are its author's words, not ours: capped so one server cannot crowd out the rest. */
const MAX_INSTRUCTIONS = 2000;
/** One tool's line: the full description is in the tool definition; here the model needs the gist. */
const MAX_DESCRIPTION = 200;
/** All of one server's descriptions; past it its remaining tools are listed by name only. */
const MAX_SERVER_DESCRIPTIONS = 2400;

/**
 * The system prompt is built from the tools discovered at the start of each model call, so the
 * model knows what it can do right now (servers come and go; a crashed one's tools disappear).
 * `tools` are the ones sent in full; `deferred` ones are named by server and count only, with how to
 * find them (tool-offer/): listing thousands of names would cost what deferring them saves.
 */
export function buildSystemPrompt(tools: HubTool[], workspaceName: string, statuses: ServerStatus[] = [], deferred: HubTool[] = []): string {
  const byServer = new Map<string, HubTool[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  const lines = [
    `You are MCP Agent, a careful coding and research assistant working inside the workspace "${workspaceName}".`,
    'All file paths you pass to tools are relative to the workspace root; you cannot reach files outside it.',
    'Use tools when they help; run independent tool calls in the same turn so they run at once.',
    'When a tool returns an error, read it, fix the call and try again, or explain what went wrong.',
    'Answer in GitHub-flavoured markdown; put code in fenced blocks with a language.',
  ];
  if (byServer.size === 0 && deferred.length === 0) {
    lines.push('', 'No tools are available right now: answer from the conversation alone.');
    return lines.join('\n');
  }
  lines.push(
    '',
    'Tools available, by MCP server, as name: what it does. Prefer the tool made for a task over a general one: ' +
      'query a database with its query tool, read a file with read_file, fetch a page with fetch_url; keep run_code for what no tool does.',
  );
  for (const [server, list] of byServer) lines.push(...serverSection(server, list));
  if (deferred.length > 0) lines.push('', ...deferredSection(deferred));
  const servers = new Set([...byServer.keys(), ...deferred.map((t) => t.server)]);
  for (const s of statuses) {
    const text = s.state === 'ready' && servers.has(s.name) ? s.instructions?.trim() : undefined;
    if (text) lines.push('', `Instructions from the ${s.name} server:`, text.slice(0, MAX_INSTRUCTIONS));
  }
  return lines.join('\n');
}

/** Where the tools not listed are, and how to reach them. */
function deferredSection(deferred: HubTool[]): string[] {
  const counts = new Map<string, number>();
  for (const t of deferred) counts.set(t.server, (counts.get(t.server) ?? 0) + 1);
  const servers = [...counts].map(([server, n]) => `${server} (${n.toLocaleString('en-US')} tool${n === 1 ? '' : 's'})`);
  return [
    `More tools are not loaded, to keep each request small: ${servers.join(', ')}.`,
    'Find them with the tool search tool (tool_search_tool_bm25 or search_tools, whichever you have), by what they should do, ' +
      'their server or their name; what it finds can be called right away (what search_tools finds, through call_tool). Search before saying that something cannot be done.',
  ];
}

/** `server:` then one `- name: description` line per tool, within the server's budget. */
function serverSection(server: string, tools: HubTool[]): string[] {
  const out = [`${server}:`];
  let budget = MAX_SERVER_DESCRIPTIONS;
  const nameOnly: string[] = [];
  for (const t of tools) {
    const gist = toolGist(t);
    if (nameOnly.length > 0 || gist.length > budget) {
      nameOnly.push(t.qualifiedName);
      continue;
    }
    budget -= gist.length;
    out.push(gist ? `- ${t.qualifiedName}: ${gist}` : `- ${t.qualifiedName}`);
  }
  if (nameOnly.length > 0) out.push(`- also: ${nameOnly.join(', ')} (see their definitions)`);
  return out;
}

/**
 * The description on one line (a server's text must not start lines of its own in our prompt),
 * cut at a sentence end within MAX_DESCRIPTION where there is one.
 */
export function toolGist(t: HubTool): string {
  const text = (t.tool.description || t.tool.title || '').replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_DESCRIPTION) return text;
  const head = text.slice(0, MAX_DESCRIPTION);
  const stop = head.search(/[.!?](?=\s)[^.!?]*$/);
  return stop >= 60 ? head.slice(0, stop + 1) : `${head.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…`;
}
