import * as z from 'zod';
import type { McpHub } from '../mcp/hub/hub';
import type { CallOptions, CallToolResult } from '../mcp/types';
import { untilStarted } from '../mcp/hub/readiness';
import { commandCall, type CommandCallDeps, type CommandOutcome } from '../tool-call/command-call';
import { checkpointEvent } from '../checkpoint/turn-checkpoint';
import type { RunCheckpoint, RunCheckpoints } from './run-checkpoints';

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

/** What a run's call takes besides its arguments: cancellation and progress (its timeouts are the path's). */
export type RunOptions = Pick<CallOptions, 'signal' | 'onProgress'>;

export interface OrchestratorClientDeps {
  /** The approved-call path's parts for the person's commands (command-call.ts); the host is the hub. */
  calls: Omit<CommandCallDeps, 'host'>;
  /** Where the checkpoints of runs started here are kept; unset: a run's changes cannot be undone from here. */
  runs?: RunCheckpoints;
}

/**
 * What the Sessions view and its commands ask of the orchestrator server, through its own tools (JSON answers,
 * validated here: a server's answer is input like any other). Every call takes the approved-call path, with the
 * person's command as its approval (command-call.ts); a start or resume is checkpointed, and its checkpoint kept
 * per session, so the files its sub-agent changed can be put back.
 */
export class OrchestratorClient {
  private readonly deps: OrchestratorClientDeps;

  constructor(
    private readonly hub: McpHub,
    deps?: OrchestratorClientDeps,
  ) {
    // Without a front end's parts: reads only ask nothing, and a change asks nobody but the command.
    this.deps = deps ?? { calls: { approvals: { has: () => false, add: () => undefined } } };
  }

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

  start(session: string, agent: string | undefined, prompt: string, opts: RunOptions = {}): Promise<unknown> {
    return this.run({ session, kind: 'start', prompt }, 'start_agent', { session_name: session, ...(agent ? { agent_name: agent } : {}), prompt }, opts);
  }

  resume(session: string, prompt: string, opts: RunOptions = {}): Promise<unknown> {
    return this.run({ session, kind: 'resume', prompt }, 'resume_agent', { session_name: session, prompt }, opts);
  }

  async remove(session: string): Promise<unknown> {
    const answer = await this.call('clean_sessions', { confirm: true, session_name: session });
    await this.deps.runs?.forget(session);
    return answer;
  }

  async cleanAll(): Promise<unknown> {
    const answer = await this.call('clean_sessions', { confirm: true });
    // A running session is kept by the orchestrator, and its runs' checkpoints with it; unlisted, nothing is forgotten.
    const left = this.deps.runs ? await this.sessions().catch(() => undefined) : undefined;
    if (left) await this.deps.runs?.keepOnly(new Set(left.map((s) => s.name)));
    return answer;
  }

  /** The session's runs started here that changed files, newest first, with their checkpoints. */
  async runs(session: string): Promise<RunCheckpoint[]> {
    return (await this.deps.runs?.of(session)) ?? [];
  }

  async transcript(session: string): Promise<string> {
    const result = await this.hub.readResource(ORCHESTRATOR, `sessions://${session}`);
    return result.contents.map((c) => ('text' in c ? c.text : '')).join('\n');
  }

  /** A start or resume: checkpointed, and its checkpoint kept once the call has ended, however it ended. */
  private async run(
    about: Pick<RunCheckpoint, 'session' | 'kind' | 'prompt'>,
    tool: string,
    args: Record<string, unknown>,
    opts: RunOptions,
  ): Promise<unknown> {
    const at = Date.now();
    const done = await this.callTool(tool, args, { ...opts, personText: [about.prompt], checkpoint: this.deps.runs !== undefined });
    if (done.checkpoint && this.deps.runs) {
      const checkpoint = checkpointEvent(`run-${at}`, done.checkpoint);
      await this.deps.runs
        .add({ ...about, at, checkpoint })
        .catch((err: unknown) => this.deps.calls.log?.(`could not keep the checkpoint of ${about.session}'s run: ${String(err)}`));
    }
    return answerOf(tool, done);
  }

  /** A tool's JSON answer; its own error text when it answers isError. */
  private async call(tool: string, args: Record<string, unknown>): Promise<unknown> {
    return answerOf(tool, await this.callTool(tool, args, {}));
  }

  private async callTool(
    tool: string,
    args: Record<string, unknown>,
    opts: RunOptions & { personText?: string[]; checkpoint?: boolean },
  ): Promise<CommandOutcome> {
    // A command run as the window opens finds the orchestrator still starting: it waits for it rather than failing.
    await untilStarted(this.hub, ORCHESTRATOR);
    return commandCall({ ...this.deps.calls, host: this.hub }, { name: `${ORCHESTRATOR}__${tool}`, input: { response_format: 'json', ...args }, ...opts });
  }
}

function answerOf(tool: string, done: CommandOutcome): unknown {
  if (!done.outcome.ok) throw new Error(done.outcome.why);
  const result: CallToolResult = done.outcome.result;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  if (result.isError) throw new Error(text || `${tool} failed`);
  if (result.structuredContent) return result.structuredContent;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
