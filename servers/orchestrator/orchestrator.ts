import { sessionsDir } from '../../src/core/chat/chat-home';
import { ToolError } from '../lib/results';
import type { AgentCatalog } from './agent-definitions';
import { lazyClient } from './anthropic-client';
import { configFromEnv, KEY_HINT, type OrchestratorConfig } from './config';
import { GeneralLog } from './general-log';
import { loadPersonServers, personServersStamp, type PersonServers } from './person-servers';
import { ServerConsent } from './server-consent';
import { moveWorkspaceSessions } from './legacy-sessions';
import { QuerySessions } from './query-sessions';
import { recoverSessions } from './session-recovery';
import type { SessionRunner } from './session-runner';
import { SessionStore } from './session-store';
import { SubServers } from './sub-servers';

/** How long exit waits for running turns to save their state as interrupted. */
const STOP_GRACE_MS = 5_000;

/**
 * What `${VAR}` in a definition's own servers may read: a workspace's file never gets the Anthropic key or
 * endpoint into a program it chose, even one the person agreed to start.
 */
function withoutAnthropic(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('ANTHROPIC_')));
}

/** What every connection to this process shares: one session store, runner, set of sub-servers and query sessions. */
export interface OrchestratorCore {
  workspace: string;
  config: OrchestratorConfig;
  store: SessionStore;
  queries: QuerySessions;
  client: ReturnType<typeof lazyClient>;
  agents: () => Promise<AgentCatalog>;
  /** The runner, loaded on first use (it brings the agent loop and the Anthropic SDK). */
  runner: () => Promise<SessionRunner>;
  isRunning: (name: string) => boolean;
  requireKey: () => void;
  /** Resolves once sessions a killed process left `running` are marked interrupted. */
  recovered: Promise<void>;
  /** Tells every connected client's resources that a session changed. */
  changed: (name: string, listChanged?: boolean) => void;
  /** Adds a connection's listener for `changed`; returns how to remove it. */
  onChanged: (listener: (name: string, listChanged: boolean) => void) => () => void;
  log: (line: string) => void;
  /** The claude-agent seed's general log: tool calls, results, query sessions (CLAUDE_LOG_*). */
  generalLog: GeneralLog;
  dispose: () => Promise<void>;
}

/**
 * The orchestrator's process-wide state. Over stdio one MCP server uses it; over HTTP each session
 * gets its own MCP server (server.ts) on this same core, so sub-servers start once per process and
 * a session runs once whoever asks.
 */
export function createOrchestratorCore(
  workspace: string,
  config: OrchestratorConfig = configFromEnv(process.env, workspace),
  servers = new SubServers(workspace),
): OrchestratorCore {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const generalLog = new GeneralLog(config.query.log);
  const client = lazyClient(config);
  const store = new SessionStore(sessionsDir(workspace, config.home));
  const queries = new QuerySessions(config.query.maxHistory, config.query.sessionTimeoutMs, (message) => generalLog.info(message));
  const listeners = new Set<(name: string, listChanged: boolean) => void>();
  const changed = (name: string, listChanged = false): void => {
    for (const l of listeners) l(name, listChanged);
  };
  let person: { stamp: string; loaded: Promise<PersonServers> } | undefined;
  const personServers = async (): Promise<PersonServers> => {
    const stamp = await personServersStamp();
    if (person?.stamp !== stamp) {
      const loaded = loadPersonServers(workspace).then((p) => {
        for (const problem of p.problems) log(`orchestrator: ${problem}`);
        return p;
      });
      person = { stamp, loaded };
    }
    return person.loaded;
  };
  const agents = async (): Promise<AgentCatalog> =>
    (await import('./agent-definitions')).loadAgents({
      workspace,
      personServers: [...(await personServers()).configs.keys()],
      env: withoutAnthropic(process.env),
    });
  const consent = new ServerConsent(config.trustWorkspaceServers, config.approve);
  const requireKey = (): void => {
    if (!config.apiKey) throw new ToolError(`The orchestrator needs an Anthropic API key to run agents. ${KEY_HINT}`);
  };

  let runner: SessionRunner | undefined;
  let loading: Promise<SessionRunner> | undefined;
  const getRunner = (): Promise<SessionRunner> =>
    (loading ??= (async () => {
      const [{ SessionRunner: Runner }, anthropic] = await Promise.all([import('./session-runner'), client()]);
      if (!anthropic) throw new ToolError(`The orchestrator needs an Anthropic API key to run agents. ${KEY_HINT}`);
      runner = new Runner({ workspace, store, servers, config, client: anthropic, agents, personServers, consent, changed });
      return runner;
    })());

  let disposing: Promise<void> | undefined;
  return {
    workspace,
    config,
    store,
    queries,
    client,
    agents,
    runner: getRunner,
    isRunning: (name) => runner?.isRunning(name) ?? false,
    requireKey,
    // Sessions an earlier version kept in the workspace move first, so recovery sees them too.
    recovered: moveWorkspaceSessions(workspace, store, log)
      .then(() => recoverSessions(store, changed))
      .catch((err: unknown) => log(`orchestrator: could not check the sessions: ${(err as Error).message}`)),
    changed,
    onChanged: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    log,
    generalLog,
    dispose: () =>
      (disposing ??= (async () => {
        if (runner) await Promise.race([runner.dispose(), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
        queries.dispose();
        await servers.dispose();
      })()),
  };
}
