import { delimiter } from 'node:path';
import type { ServerDefinition } from './definition';
import { resolveServers } from './resolve';
import type { ServerConfig } from '../types';
import type { ReadSource } from './own-server-sources';
import type { ConfigSource } from './definition';
import type { AskInput } from './vscode-inputs';

/** Why a defined server is not running, in the Tools view's words. */
export type Held = 'disabled' | 'editor-host' | 'restricted' | 'declined' | 'unanswered-trust' | 'unanswered-input' | 'unparsed';

export const HELD_TEXT: Record<Held, string> = {
  disabled: 'disabled',
  'editor-host': "left to VS Code's MCP host",
  restricted: 'not started: Restricted Mode',
  declined: 'not started: you chose not to',
  'unanswered-trust': 'not started: waiting for your answer',
  'unanswered-input': 'not started: an input was not answered',
  unparsed: 'not started: its file does not parse (asked once it does)',
};

export interface OwnServer {
  definition: ServerDefinition;
  /** What the hub runs; absent while held. */
  config?: ServerConfig;
  held?: Held;
}

export interface OwnSource extends ReadSource {
  servers: OwnServer[];
}

export type TrustAnswer = 'trusted' | 'declined';

/** The person's answers about servers a workspace defines, remembered per definition (the front end keeps them). */
export interface ServerTrustAnswers {
  answer(d: ServerDefinition): TrustAnswer | undefined;
  /** Asks once for all of a file's servers not answered yet; undefined: no answer (the question was closed). */
  ask(label: string, definitions: readonly ServerDefinition[]): Promise<TrustAnswer | undefined>;
}

/** What the front end gives: the person's answers, their inputs, the servers they turned off, and where a file's problems go. */
export interface OwnServersDeps {
  trust: ServerTrustAnswers;
  inputs: { ask: AskInput };
  disabled: { has(source: ConfigSource, key: string): boolean };
  diagnostics: { publish(sources: readonly ReadSource[]): void };
  /** The login shell's PATH (login-shell-path.ts), for stdio servers. */
  shellPath: () => Promise<string | undefined>;
}

/**
 * Decides which of the window's own servers run: disabled ones and, in Restricted Mode, every
 * workspace-defined one never do; a workspace-defined one runs only after the person agreed to its
 * exact definition (one question per file); user-level ones (the setting) need no question. Inputs
 * are asked last, only for servers that will run.
 */
export class OwnServers {
  constructor(private readonly deps: OwnServersDeps) {}

  /**
   * Which servers run. When a question is to be asked, `ready` is first given what needs none (the person's own
   * servers, workspace ones agreed to before), so a question left open never holds those back; the sources
   * returned have the answers too. `leftToEditor`: files whose servers the editor's own MCP host runs instead
   * (never asked about, never started).
   */
  async decide(
    read: readonly ReadSource[],
    workspaceTrusted: boolean,
    options: { ready?: (sources: OwnSource[]) => Promise<void>; leftToEditor?: (source: ConfigSource) => boolean } = {},
  ): Promise<OwnSource[]> {
    const { ready, leftToEditor = () => false } = options;
    this.deps.diagnostics.publish(read);
    const sources: OwnSource[] = read.map((s) => ({ ...s, diagnostics: [...s.diagnostics], servers: s.definitions.map((definition) => ({ definition })) }));
    const asking = new Map<OwnSource, OwnServer[]>();
    for (const source of sources) {
      // A file being written (half of it parses) is never asked about: what it would run is not known yet.
      const unparsed = source.diagnostics.some((d) => d.syntax);
      for (const server of source.servers) {
        server.held = leftToEditor(source.source) ? 'editor-host' : this.heldBefore(server.definition, workspaceTrusted);
        if (server.held === 'unanswered-trust' && unparsed) server.held = 'unparsed';
        if (server.held === 'unanswered-trust') asking.set(source, [...(asking.get(source) ?? []), server]);
      }
    }
    await this.resolve(sources, going(sources));
    if (asking.size === 0) return sources;
    await ready?.(sources);
    for (const [source, servers] of asking) {
      const answer = await this.deps.trust.ask(
        source.label,
        servers.map((s) => s.definition),
      );
      for (const server of servers) server.held = answer === 'trusted' ? undefined : answer === 'declined' ? 'declined' : 'unanswered-trust';
    }
    await this.resolve(
      sources,
      [...asking.values()].flat().filter((o) => !o.held),
    );
    return sources;
  }

  private heldBefore(d: ServerDefinition, workspaceTrusted: boolean): Held | undefined {
    if (this.deps.disabled.has(d.source, d.key)) return 'disabled';
    if (d.source.origin !== 'workspace') return undefined;
    if (!workspaceTrusted) return 'restricted';
    const answer = this.deps.trust.answer(d);
    return answer === 'trusted' ? undefined : answer === 'declined' ? 'declined' : 'unanswered-trust';
  }

  /** Inputs asked and configs made for `going`, servers that will run; one whose input was not answered is held. */
  private async resolve(sources: OwnSource[], going: OwnServer[]): Promise<void> {
    if (going.length === 0) return;
    const { servers, diagnostics } = await resolveServers(
      going.map((o) => o.definition),
      this.deps.inputs.ask,
    );
    const path = going.some((o) => o.definition.transport === 'stdio') ? await this.deps.shellPath() : undefined;
    const byDefinition = new Map(servers.map((s) => [s.definition, s.config]));
    for (const own of going) {
      const config = byDefinition.get(own.definition);
      if (config) own.config = withPath(config, path);
      else own.held = 'unanswered-input';
    }
    for (const d of diagnostics) sources.find((s) => s.source.file === d.file)?.diagnostics.push(d);
  }
}

/** The servers of `sources` that will run, and have no config yet. */
function going(sources: readonly OwnSource[]): OwnServer[] {
  return sources.flatMap((s) => s.servers.filter((o) => !o.held && !o.config));
}

/**
 * The login shell's PATH, then anything of VS Code's own PATH it lacks, for a stdio server whose
 * definition does not set PATH itself. Node looks the command up in the PATH it is given.
 */
function withPath(config: ServerConfig, shellPath: string | undefined): ServerConfig {
  if (config.transport !== 'stdio' || !shellPath || config.env?.PATH !== undefined) return config;
  const parts = shellPath.split(delimiter).filter(Boolean);
  for (const p of (process.env.PATH ?? '').split(delimiter)) if (p && !parts.includes(p)) parts.push(p);
  return { ...config, env: { ...config.env, PATH: parts.join(delimiter) } };
}
