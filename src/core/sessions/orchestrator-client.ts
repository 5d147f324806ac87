import * as z from 'zod';
import type { McpHub } from '../mcp/hub/hub';
import type { CallOptions, CallToolResult } from '../mcp/types';
import { untilStarted } from '../mcp/hub/readiness';

/** The orchestrator server's name among the bundled servers. */
export const ORCHESTRATOR = 'orchestrator';

const sessionSchema = z.object({
  name: z.string(),
  agent: z.string(),
  model: z.string().optional(),
  status: z.string(),
  detail: z.string().optional().nullable(),
  turns: z.number(),
  tokens: z.number(),
  cost_usd: z.number().optional().nullable(),
  created: z.string().optional(),
  last_activity: z.string(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;

const agentSchema = z.object({ name: z.string(), description: z.string().optional() });
const brokenSchema = z.object({ file: z.string(), why: z.string() });
/** The agents a session can run, and the definition files that are not used with why (a name a built-in agent has, ...). */
export type AgentList = { agents: Array<z.infer<typeof agentSchema>>; broken: Array<z.infer<typeof brokenSchema>> };

/**
 * What the Sessions view and its commands ask of the orchestrator server, through its own tools
 * (JSON answers, validated here: a server's answer is input like any other).
 */
export class OrchestratorClient {
  constructor(private readonly hub: McpHub) {}

  get ready(): boolean {
    return this.hub.status(ORCHESTRATOR)?.state === 'ready';
  }

  async sessions(): Promise<SessionInfo[]> {
    const json = await this.call('list_sessions', { response_format: 'json' });
    return z.object({ sessions: z.array(sessionSchema) }).parse(json).sessions;
  }

  async agents(): Promise<AgentList> {
    const json = await this.call('list_agents', { response_format: 'json' });
    return z.object({ agents: z.array(agentSchema), broken: z.array(brokenSchema).default([]) }).parse(json);
  }

  start(session: string, agent: string | undefined, prompt: string, opts: CallOptions): Promise<unknown> {
    return this.call('start_agent', { session_name: session, ...(agent ? { agent_name: agent } : {}), prompt }, opts);
  }

  resume(session: string, prompt: string, opts: CallOptions): Promise<unknown> {
    return this.call('resume_agent', { session_name: session, prompt }, opts);
  }

  remove(session: string): Promise<unknown> {
    return this.call('clean_sessions', { confirm: true, session_name: session });
  }

  cleanAll(): Promise<unknown> {
    return this.call('clean_sessions', { confirm: true });
  }

  async transcript(session: string): Promise<string> {
    const result = await this.hub.readResource(ORCHESTRATOR, `sessions://${session}`);
    return result.contents.map((c) => ('text' in c ? c.text : '')).join('\n');
  }

  /** A tool's JSON answer; its own error text when it answers isError. */
  private async call(tool: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<unknown> {
    // A command run as the window opens finds the orchestrator still starting: it waits for it rather than failing.
    await untilStarted(this.hub, ORCHESTRATOR);
    const result: CallToolResult = await this.hub.callTool(`${ORCHESTRATOR}__${tool}`, { response_format: 'json', ...args }, opts);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    if (result.isError) throw new Error(text || `${tool} failed`);
    if (result.structuredContent) return result.structuredContent;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
}
