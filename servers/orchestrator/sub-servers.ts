import { join } from 'node:path';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { SUB_SERVERS } from './tool-allowlist';

/**
 * The bundled servers the sub-agents use, started by this process on the first run that needs
 * them (a client that only lists sessions starts none), once, and closed when it exits.
 */
export class SubServers {
  private hub: McpHub | undefined;
  private ready: Promise<McpHub> | undefined;
  private disposed = false;

  constructor(
    private readonly workspace: string,
    /** The folder holding `servers/<name>.js`: next to this bundle's own folder. */
    private readonly distDir: string = join(__dirname, '..'),
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  /** The hub once every server has started (or failed: its tools are then missing, and its status says why). */
  get(): Promise<McpHub> {
    if (this.disposed) return Promise.reject(new Error('the orchestrator is shutting down'));
    this.ready ??= this.start();
    return this.ready;
  }

  private async start(): Promise<McpHub> {
    const configs = bundledServerConfigs(this.distDir, this.workspace, this.env).filter((c) =>
      (SUB_SERVERS as readonly string[]).includes(c.name),
    );
    // The MCP client side loads only when a sub-agent first needs its servers.
    const { McpHub: Hub } = await import('../../src/core/mcp/hub/hub');
    if (this.disposed) throw new Error('the orchestrator is shutting down');
    const hub = new Hub(configs, {
      connection: { roots: [this.workspace], log: (server, line) => this.log(`orchestrator: ${server}: ${line}`) },
    });
    this.hub = hub;
    hub.start();
    await hub.settled();
    for (const s of hub.statuses()) if (s.state === 'error') this.log(`orchestrator: server ${s.name} failed: ${s.error ?? 'unknown error'}`);
    return hub;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.hub?.dispose();
  }
}
