import type Anthropic from '@anthropic-ai/sdk';
import type { ModelEntry } from '../agent/model-catalog';
import type { ModelClient } from '../agent/model-client';
import type { LoggingHandler } from '../mcp/client/client-handlers';
import { elicitationHandler, type ElicitationAsk } from '../mcp/client/elicitation-handler';
import type { ConnectionOptions } from '../mcp/session/connection';
import type { EraMemory } from '../mcp/era/era-memory';
import { McpHub } from '../mcp/hub/hub';
import type { OAuthFrontEnd } from '../mcp/oauth/front-end';
import type { ServerConfig } from '../mcp/types';
import { SamplingBroker, type SamplingBrokerOptions } from '../sampling/sampling-broker';

/** How a front end asks the person what servers ask (cards in the chat, lines on a terminal), and signs them in. */
export interface PersonAsks {
  sampling: Pick<SamplingBrokerOptions, 'ask' | 'allowed' | 'onBudget'>;
  elicitation: ElicitationAsk;
  /** Sign-in to HTTP servers that ask for it; without it such a server fails to start, saying why. */
  oauth?: OAuthFrontEnd;
}

/** The Messages API on the person's key, which a server's sampling runs on, as the chat does. */
export interface SamplingModels {
  /** Undefined without a key. */
  client(): Promise<ModelClient | undefined>;
  list(): Promise<readonly ModelEntry[]>;
  /** The model when the server's preferences pick none: the chat's own. */
  current(): string;
  /** How the person sets a key, in their front end's words. */
  keyHint: string;
}

export interface HostOptions {
  configs: ServerConfig[];
  /** The folders servers are offered as roots. */
  roots: string[];
  asks: PersonAsks;
  models: SamplingModels;
  /** The tokens a server's sampling used, to be counted with the chat's. */
  onSamplingUsage?(server: string, model: string, usage: Anthropic.Usage): void;
  /** Where servers' log messages go (each server's output channel; the terminal). */
  logging?: LoggingHandler;
  clientInfo?: ConnectionOptions['clientInfo'];
  /** The host's own lines about each server (protocol traffic, restarts). */
  log?: ConnectionOptions['log'];
  /** Where each server definition's protocol era is remembered (era-memory.ts); without it, for as long as the host runs. */
  eras?: EraMemory;
  /** How long a server is given to answer initialize on its first try, read at each start (the hub's default without). */
  startLimitMs?: () => number;
}

/** The MCP host as both front ends run it: every server behind one hub, and the person's answers to what servers ask. */
export interface Host {
  hub: McpHub;
  /** Servers' sampling requests: what "always" allowed and how much of its budget is used. */
  sampling: SamplingBroker;
}

/**
 * Composes the host once for the extension and the CLI: the hub with its client capabilities (sampling
 * on the person's key and models, elicitation and sign-in through the front end's questions, logging).
 * The front ends differ only in how they ask, not in what is wired to what.
 */
export function composeHost(o: HostOptions): Host {
  const sampling = new SamplingBroker({
    ...o.asks.sampling,
    create: async (body, signal) => {
      const client = await o.models.client();
      if (!client) throw new Error(`no Anthropic API key is set (${o.models.keyHint})`);
      return client.messages.create(body, { signal });
    },
    models: () => o.models.list(),
    defaultModel: () => o.models.current(),
    onUsage: o.onSamplingUsage,
  });
  const hub = new McpHub(o.configs, {
    connection: {
      roots: o.roots,
      ...(o.clientInfo ? { clientInfo: o.clientInfo } : {}),
      ...(o.log ? { log: o.log } : {}),
      ...(o.asks.oauth ? { oauth: o.asks.oauth } : {}),
      ...(o.eras ? { eras: o.eras } : {}),
      handlers: { sampling: sampling.handler, elicitation: elicitationHandler(o.asks.elicitation), ...(o.logging ? { logging: o.logging } : {}) },
    },
    ...(o.startLimitMs ? { startLimitMs: o.startLimitMs } : {}),
  });
  return { hub, sampling };
}
