import { join } from 'node:path';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { SUB_SERVERS } from './tool-allowlist';

/**
 * The servers the sub-agents use, started by this process on the first run that needs them (a client
 * that only lists sessions starts none), once, and closed when it exits: the bundled ones and the
 * person's own that an agent names in one hub; each agent's own servers in a hub of their own, so two
 * definitions may give one name to different servers.
 */
export class SubServers {
  private shared: Promise<McpHub> | undefined;
  /** The person's own servers in the shared hub so far; adding more waits for the last change. */
  private added: ServerConfig[] = [];
  private adding: Promise<unknown> = Promise.resolve();
  private readonly own = new Map<string, Promise<McpHub>>();
  private readonly hubs = new Set<McpHub>();
  private disposed = false;

  constructor(
    private readonly workspace: string,
    /** The folder holding `servers/<name>.js`: next to this bundle's own folder. */
    private readonly distDir: string = join(__dirname, '..'),
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  /**
   * The shared hub once every server in it has started (or failed: its tools are then missing, and its
   * status says why), with `person`, configs of the person's own servers, among them.
   */
  async get(person: readonly ServerConfig[] = []): Promise<McpHub> {
    if (this.disposed) throw new Error('the orchestrator is shutting down');
    this.shared ??= this.start(this.bundled());
    const hub = await this.shared;
    const missing = person.filter((c) => !this.added.some((a) => a.name === c.name));
    if (missing.length > 0) {
      this.added.push(...missing);
      this.adding = this.adding.then(() => hub.update([...this.bundled(), ...this.added]));
    }
    await this.adding;
    await hub.settled();
    this.report(
      hub,
      missing.map((c) => c.name),
    );
    return hub;
  }

  /** A hub of one agent definition's own servers, started once per `key` (what they run). */
  ownHub(key: string, configs: ServerConfig[]): Promise<McpHub> {
    let hub = this.own.get(key);
    if (!hub) this.own.set(key, (hub = this.start(configs)));
    return hub;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.hubs].map((h) => h.dispose()));
  }

  private bundled(): ServerConfig[] {
    return bundledServerConfigs(this.distDir, this.workspace, this.env).filter((c) => (SUB_SERVERS as readonly string[]).includes(c.name));
  }

  private async start(configs: ServerConfig[]): Promise<McpHub> {
    if (this.disposed) throw new Error('the orchestrator is shutting down');
    // The MCP client side loads only when a sub-agent first needs its servers.
    const { McpHub: Hub } = await import('../../src/core/mcp/hub/hub');
    if (this.disposed) throw new Error('the orchestrator is shutting down');
    const hub = new Hub(configs, {
      connection: { roots: [this.workspace], log: (server, line) => this.log(`orchestrator: ${server}: ${line}`) },
    });
    this.hubs.add(hub);
    hub.start();
    await hub.settled();
    this.report(
      hub,
      configs.map((c) => c.name),
    );
    return hub;
  }

  private report(hub: McpHub, names: readonly string[]): void {
    for (const s of hub.statuses())
      if (names.includes(s.name) && s.state === 'error') this.log(`orchestrator: server ${s.name} failed: ${s.error ?? 'unknown error'}`);
  }
}
