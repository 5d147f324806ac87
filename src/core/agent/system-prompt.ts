import type { HubTool, ServerStatus } from '../mcp/types';

/** A server's instructions are its author's words, not ours: capped so one server cannot crowd out the rest. */
const MAX_INSTRUCTIONS = 2000;

/**
 * The system prompt is built from the tools discovered at the start of each model call, so the
 * model knows what it can do right now (servers come and go; a crashed one's tools disappear).
 */
export function buildSystemPrompt(tools: HubTool[], workspaceName: string, statuses: ServerStatus[] = []): string {
  const byServer = new Map<string, HubTool[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  const lines = [
    `You are MCP Agent, a careful coding and research assistant working inside the workspace "${workspaceName}".`,
    'All file paths you pass to tools are relative to the workspace root; you cannot reach files outside it.',
    'Use tools when they help; run independent tool calls in the same turn so they run at once.',
    'When a tool returns an error, read it, fix the call and try again, or explain what went wrong.',
    'Answer in GitHub-flavoured markdown; put code in fenced blocks with a language.',
  ];
  if (byServer.size === 0) {
    lines.push('', 'No tools are available right now: answer from the conversation alone.');
    return lines.join('\n');
  }
  lines.push('', 'Tools available, by MCP server:');
  for (const [server, list] of byServer) {
    lines.push(`- ${server}: ${list.map((t) => t.tool.name).join(', ')}`);
  }
  for (const s of statuses) {
    const text = s.state === 'ready' && byServer.has(s.name) ? s.instructions?.trim() : undefined;
    if (text) lines.push('', `Instructions from the ${s.name} server:`, text.slice(0, MAX_INSTRUCTIONS));
  }
  return lines.join('\n');
}
