import type { Tool } from '@modelcontextprotocol/client';
import type { HubTool } from '../types';
import { visibleToModel } from '../requests/app-visibility';
import { needsTasks, qualifyTools } from './tool-names';

/** A ready server's tools as the index reads them, and whether it takes task-augmented calls. */
export interface IndexedServer {
  server: string;
  tools: readonly Tool[];
  tasks: boolean;
  /** Its tools whose inputSchema is invalid, by name (tool-schema-check.ts). */
  invalid?: ReadonlyMap<string, string>;
}

/**
 * Every ready server's tools under their qualified names (tool-names.ts), built once per change of the hub: all
 * of them by name (a call names any), those the model may use, and each server's own by their own names.
 */
export class ToolIndex {
  private all: HubTool[] | undefined;
  private anyByName = new Map<string, HubTool>();
  private forModel: HubTool[] = [];
  private modelByName = new Map<string, HubTool>();

  constructor(private readonly servers: () => IndexedServer[]) {}

  /** The servers or their tools changed: the index is built again when next asked. */
  stale(): void {
    this.all = undefined;
  }

  /**
   * What the model may use: not tools made for an app's view alone (app-visibility.ts), nor tools that run only as
   * tasks where their server takes none (every call would fail), nor tools whose inputSchema is invalid (the
   * Messages API would refuse every request).
   */
  modelTools(): HubTool[] {
    this.build();
    return this.forModel;
  }

  /** One of modelTools() by its qualified name. */
  modelTool(qualifiedName: string): HubTool | undefined {
    this.build();
    return this.modelByName.get(qualifiedName);
  }

  /** Any tool by its qualified name, whoever it is for. */
  anyTool(qualifiedName: string): HubTool | undefined {
    this.build();
    return this.anyByName.get(qualifiedName);
  }

  /** A server's tool by its own name, whoever it is for. */
  serverTool(server: string, name: string): HubTool | undefined {
    this.build();
    return this.all?.find((t) => t.server === server && t.tool.name === name);
  }

  private build(): void {
    if (this.all) return;
    const servers = this.servers();
    const tasks = new Set(servers.filter((s) => s.tasks).map((s) => s.server));
    const invalid = new Map(servers.map((s) => [s.server, s.invalid]));
    this.all = qualifyTools(servers);
    this.anyByName = new Map(this.all.map((t) => [t.qualifiedName, t]));
    this.forModel = this.all.filter((t) => visibleToModel(t.tool) && (!needsTasks(t.tool) || tasks.has(t.server)) && !invalid.get(t.server)?.has(t.tool.name));
    this.modelByName = new Map(this.forModel.map((t) => [t.qualifiedName, t]));
  }
}
