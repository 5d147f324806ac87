import { planTools } from '../../src/core/tool-offer/tool-plan';
import type Anthropic from '@anthropic-ai/sdk';
import { basename } from 'node:path';
import { ToolError } from '../../src/node/tool-error';
import { Agent } from '../../src/core/agent/agent';
import { freezeSystem, type FrozenSystem } from '../../src/core/agent/frozen-system';
import type { ToolHost, TurnStatus } from '../../src/core/agent/types';
import { modernCall, UNANSWERED } from '../lib/modern-call';
import type { ToolExtra } from '../lib/results';
import { modelOf, type AgentCatalog, type AgentDefinition } from './agent-definitions';
import { approvalAsker, approvalQuestion, sessionApprovals, type Refusal } from './approvals';
import type { AskChoice } from './client-question';
import type { PersonServers } from './person-servers';
import type { ConsentOutcome, ServerConsent } from './server-consent';
import { resolveServers } from '../../src/core/mcp/config/resolve';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { KEY_HINT, type OrchestratorConfig } from './config';
import { ProgressReporter } from './progress';
import { checkSessionName, newRecord, type SessionRecord, type SessionStore } from './session-store';
import type { SubServers } from './sub-servers';
import { toolView } from './tool-view';
import { isAlive } from './session-recovery';
import { addUsage } from '../../src/core/usage/token-usage';
import { withBeforeModelCall } from './before-model-call';
import { messageOf } from '../../src/node/error-message';
import { EgressGuard } from '../../src/core/egress/egress-guard';
import { handedLabels, LABELS_META, type HandedLabels } from '../../src/core/egress/labels';
import type { ApprovalStore } from '../../src/core/tool-call/approval-policy';

export interface RunnerDeps {
  workspace: string;
  store: SessionStore;
  servers: SubServers;
  config: OrchestratorConfig;
  client: Anthropic;
  agents: () => Promise<AgentCatalog>;
  /** The person's own servers, which a definition may name. */
  personServers: () => Promise<PersonServers>;
  /** Whether a definition's own servers may start. */
  consent: ServerConsent;
  /** A session changed (`created`: it is new or gone, so the list itself changed). */
  changed: (name: string, created?: boolean) => void;
}

/** The request a turn runs for: its progress and cancellation, its way to ask, and whether it opens the session. */
interface RunContext {
  extra: ToolExtra;
  controller: AbortController;
  ask: AskChoice | undefined;
  /** The person's answer on the definition's own servers, asked before the turn. */
  consent: ConsentOutcome;
  first: boolean;
}

export interface RunResult {
  record: SessionRecord;
  /** What the sub-agent read, as labels for the calling chat (src/core/egress/labels.ts). */
  labels: HandedLabels;
  /** The sub-agent's last words this turn. */
  reply: string;
  refusals: Refusal[];
  /** What the caller should know of how the turn was set up (servers not started, and why). */
  notes: string[];
}

/**
 * Runs sub-agent turns: one at a time per session (a second request is refused at once), at most
 * `maxParallel` sessions at once, each on src/core/agent's loop with the history from disk, its
 * messages appended as they come, and its record saved before and after the turn.
 */
export class SessionRunner {
  private readonly running = new Map<string, AbortController>();
  private readonly runs = new Set<Promise<unknown>>();
  private readonly always = new Map<string, Set<string>>();
  private stopping = false;

  constructor(private readonly deps: RunnerDeps) {}

  isRunning(name: string): boolean {
    return this.running.has(name);
  }

  /** `ask`: how to ask the person through the client serving this request, when it can. */
  async start(name: string, agentName: string | undefined, prompt: string, extra: ToolExtra, ask?: AskChoice): Promise<RunResult> {
    checkSessionName(name);
    const controller = this.reserve(name);
    try {
      const definition = await this.definition(agentName ?? 'general');
      // Asked before anything is written: a 2026-07-28 client answers by making the call again (modern-rounds.ts).
      const consent = await this.deps.consent.decide(definition, ask, extra.signal);
      workBegins();
      const record = newRecord(name, definition.name, modelOf(definition, this.deps.config.defaultModel));
      await this.deps.store.create(record);
      this.deps.changed(name, true);
      return await this.track(this.run(record, definition, prompt, { extra, controller, ask, consent, first: true }));
    } finally {
      this.release(name, controller);
    }
  }

  async resume(name: string, prompt: string, extra: ToolExtra, ask?: AskChoice): Promise<RunResult> {
    checkSessionName(name);
    const controller = this.reserve(name);
    try {
      const record = await this.deps.store.read(name);
      if (!record) throw new ToolError(`There is no session named "${name}". list_sessions shows the sessions; start_agent starts one.`);
      if (record.status === 'running' && record.pid !== undefined && record.pid !== process.pid && isAlive(record.pid)) {
        throw new ToolError(`Session "${name}" is running a turn in another orchestrator process (pid ${record.pid}); resume it once that turn ends.`);
      }
      const definition = await this.definition(record.agent);
      const consent = await this.deps.consent.decide(definition, ask, extra.signal);
      workBegins();
      return await this.track(this.run(record, definition, prompt, { extra, controller, ask, consent, first: false }));
    } finally {
      this.release(name, controller);
    }
  }

  /** Stops every running turn and waits for each to save its record as interrupted. */
  async dispose(): Promise<void> {
    this.stopping = true;
    for (const c of this.running.values()) c.abort();
    await Promise.allSettled([...this.runs]);
  }

  /** Claims the session for one run, synchronously, so two requests can never both get it. */
  private reserve(name: string): AbortController {
    if (this.stopping) throw new ToolError('The orchestrator is shutting down; start the session again once it has restarted.');
    if (this.running.has(name)) {
      throw new ToolError(`Session "${name}" is running a turn now; only one runs at a time. Wait for it to finish (get_session shows it), then resume it.`);
    }
    const max = this.deps.config.maxParallel;
    if (this.running.size >= max) {
      throw new ToolError(
        `${this.running.size} sessions are running already, the most at once (MCP_AGENT_ORCHESTRATOR_MAX_PARALLEL=${max}). ` +
          `Wait for one of them (${[...this.running.keys()].join(', ')}) to finish, or raise the limit.`,
      );
    }
    const controller = new AbortController();
    this.running.set(name, controller);
    return controller;
  }

  /** Frees the session for the next run, unless a newer run holds it already. */
  private release(name: string, controller: AbortController): void {
    if (this.running.get(name) === controller) this.running.delete(name);
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run)).catch(() => undefined);
    return run;
  }

  private async definition(name: string): Promise<AgentDefinition> {
    const catalog = await this.deps.agents();
    const found = catalog.agents.find((a) => a.name === name);
    if (found) return found;
    const broken = catalog.broken.length ? ` (${catalog.broken.length} definition file(s) are broken; list_agents says why)` : '';
    throw new ToolError(`There is no agent named "${name}". Agents: ${catalog.agents.map((a) => a.name).join(', ')}${broken}.`);
  }

  private async run(initial: SessionRecord, definition: AgentDefinition, prompt: string, how: RunContext): Promise<RunResult> {
    const { store, config, workspace } = this.deps;
    const { extra, controller, ask, consent, first } = how;
    // The reason goes on: a 2026-07-28 call nobody came back to answer says so (modern-continuation.ts).
    const stop = (): void => controller.abort(extra.signal.reason);
    if (extra.signal.aborted) stop();
    extra.signal.addEventListener('abort', stop, { once: true });
    const progress = new ProgressReporter(extra, initial.name);
    let record: SessionRecord = { ...initial, status: 'running', detail: undefined, pid: process.pid, turns: initial.turns + 1, lastActivity: now() };
    try {
      await store.write(record);
      this.deps.changed(record.name);
      const log = await store.log(record.name);
      const history = first ? [] : await log.load();
      const notes: string[] = [];
      const host = toolView(await this.hubsFor(definition, consent, notes), definition.allow);
      // A new session's system prompt carries its definition's instructions (as the seed's --system-prompt), made
      // once and kept, so every later call reads it from the prompt cache. Older sessions had them as their first message.
      if (first && !record.system) record = { ...record, system: agentSystem(definition, host, basename(workspace)) };
      let calls = 0;
      let error: string | undefined;
      const refusals: Refusal[] = [];
      const approvals = sessionApprovals(config.approve, this.alwaysOf(record.name));
      const egress = subAgentGuard(approvals, extra, history, prompt);
      const agent = new Agent({
        // The conversation so far reaches the disk before each model call: a process killed while it waits keeps the prompt.
        client: withBeforeModelCall(this.deps.client, () => {
          progress.modelCall(++calls);
          return log.flush();
        }),
        host,
        model: record.model,
        maxIterations: config.maxIterations,
        workspaceName: basename(workspace),
        workspaceDir: workspace,
        approvals,
        egress,
        askApproval: approvalAsker(definition, config.approve, ask && approvalQuestion(ask), refusals),
        keyHint: KEY_HINT,
        settingNames: { maxTokens: 'max_tokens (8192 for sub-agents)', maxIterations: 'MCP_AGENT_ORCHESTRATOR_MAX_ITERATIONS' },
        history,
        // The system prompt the session began with, kept so a resumed session reads its prefix from the prompt cache.
        system: record.system,
        onSystem: (system) => (record = { ...record, system }),
        onMessage: (m) => {
          void log.append(m);
          this.deps.changed(record.name);
        },
      });
      const before = agent.messages.length;
      const status = await agent.runTurn(
        { text: prompt },
        (out) => {
          progress.output(out);
          if (out.type === 'event' && out.event.kind === 'turn_end') error = out.event.error;
        },
        controller.signal,
      );
      await log.flush();
      if (log.lastError) error = `${error ? `${error} ` : ''}The transcript could not be saved: ${log.lastError.message}`;
      record = {
        ...record,
        ...this.outcome(status, error, controller.signal.reason),
        usage: addUsage(record.usage, agent.usage),
        lastActivity: now(),
        pid: undefined,
      };
      // Free the session as soon as its last write is queued: whoever sees it done can resume it at once,
      // and that run's writes queue after this one.
      const saved = store.write(record);
      this.release(record.name, controller);
      await saved;
      this.deps.changed(record.name);
      return { record, reply: lastReply(agent.messages.slice(before)), refusals, notes, labels: egress.labels.handed() };
    } catch (err) {
      const message = messageOf(err);
      const saved = store.write({ ...record, status: 'error', detail: message, lastActivity: now(), pid: undefined });
      this.release(record.name, controller);
      await saved.catch(() => undefined);
      this.deps.changed(record.name);
      throw err instanceof ToolError ? err : new ToolError(`Session "${record.name}" failed: ${message}`);
    } finally {
      progress.stop();
      extra.signal.removeEventListener('abort', stop);
    }
  }

  /** The shared hub with the person's servers the definition names, and its own servers once the person agreed. */
  private async hubsFor(definition: AgentDefinition, consent: ConsentOutcome, notes: string[]): Promise<McpHub[]> {
    const person = (await this.deps.personServers()).configs;
    const shared = this.deps.servers.get([...definition.allow.servers].flatMap((name) => person.get(name) ?? []));
    if (consent.note) notes.push(consent.note);
    if (consent.start.length === 0) return [await shared];
    // A definition's own servers come in Claude's format, which has no inputs: nothing to ask.
    const { servers } = await resolveServers(consent.start, async () => undefined);
    const key = consent.start.map((d) => d.fingerprint).join('\0');
    return [
      await shared,
      await this.deps.servers.ownHub(
        key,
        servers.map((s) => s.config),
      ),
    ];
  }

  private outcome(status: TurnStatus, error: string | undefined, stoppedBy: unknown): Pick<SessionRecord, 'status' | 'detail'> {
    switch (status) {
      case 'done':
        return { status: 'done', detail: undefined };
      case 'stopped':
        return {
          status: 'interrupted',
          detail: this.stopping
            ? 'The orchestrator stopped during this turn. resume_agent continues the session.'
            : (stoppedBy as Error | undefined)?.name === UNANSWERED
              ? `Stopped waiting for an approval: ${(stoppedBy as Error).message}. resume_agent continues the session.`
              : 'Cancelled by the caller. resume_agent continues the session.',
        };
      case 'max_iterations':
        return { status: 'interrupted', detail: error ?? 'Stopped at the model-call limit. Resume with "continue".' };
      default:
        return { status: 'error', detail: error ?? 'The turn failed.' };
    }
  }

  private alwaysOf(name: string): Set<string> {
    let set = this.always.get(name);
    if (!set) this.always.set(name, (set = new Set()));
    return set;
  }
}

/**
 * Marks where the turn's work begins (a record written, then model calls and the transcript): in 2026-07-28 a question
 * from here on, a sub-agent's approval, keeps the call running in this process until the answer comes, instead of
 * ending it to be made again from the start, which would call the model twice (modern-continuation.ts). Questions
 * before here (the consent to start a definition's servers) are answered by the call made again.
 */
function workBegins(): void {
  modernCall()?.holdFromHere();
}

/** The agent loop's own system prompt (workspace, tools, servers' instructions), then the definition's instructions. */
function agentSystem(definition: AgentDefinition, host: ToolHost, workspaceName: string): FrozenSystem {
  // The same plan the agent makes (tool-plan.ts), so the prompt names tools as the requests carry them.
  const base = freezeSystem(planTools(host), workspaceName, host.statuses?.() ?? []);
  const own = [`You are the sub-agent "${definition.name}": ${definition.description}`, '', definition.prompt].join('\n').trim();
  return { ...base, text: `${base.text}\n\n${own}` };
}

function lastReply(messages: readonly Anthropic.MessageParam[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const text = typeof m.content === 'string' ? m.content : m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    if (text.trim()) return text;
  }
  return '';
}

function now(): string {
  return new Date().toISOString();
}

/**
 * A sub-agent's egress guard: it starts with the labels of the chat that called it (its secrets hold here too,
 * the hosts the person named count), labels its own history again on a resumed session, and takes its prompt as
 * private when the calling chat had read private content (the prompt may quote it).
 */
function subAgentGuard(store: ApprovalStore, extra: ToolExtra, history: readonly Anthropic.MessageParam[], prompt: string): EgressGuard {
  const handed = handedLabels(extra._meta?.[LABELS_META]) ?? { secrets: [] };
  const prompts = history.flatMap((m) => (m.role === 'user' && typeof m.content === 'string' ? [m.content] : []));
  const guard = new EgressGuard({ personText: () => [], store, handed });
  guard.labels.restore(history, handed.private ? [] : prompts);
  if (handed.private) guard.labels.noteServer('the calling chat', prompt);
  return guard;
}
