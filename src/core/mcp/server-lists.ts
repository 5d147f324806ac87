import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ServerExited } from './errors';
import { listPrompts, listResources, listResourceTemplates, listToolsLeniently } from './offer-lists';
import { messageOf } from '../../common/error-message';

export type ListKind = 'tools' | 'resources' | 'prompts';

/** What the lists need of their session. */
export interface ListSession {
  client(): Client | undefined;
  closing(): boolean;
  /** `p`, failed with ServerExited if the server ends first: a listing never outlives it (session-end.ts). */
  untilEnded<T>(p: Promise<T>): Promise<T>;
  timeoutMs: number;
  log(line: string): void;
  changed(): void;
}

/** What one server offers (tools, resources and templates, prompts), listed again when it says they changed. */
export class ServerLists {
  tools: Tool[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  private readonly inFlight = new Map<ListKind, Promise<void>>();
  private readonly dirty = new Set<ListKind>();

  constructor(private readonly session: ListSession) {}

  refreshAll(): Promise<void> {
    return Promise.all((['tools', 'resources', 'prompts'] as const).map((k) => this.refresh(k))).then(() => undefined);
  }

  /** Coalesces bursts of list_changed: one listing in flight per kind, one more if asked meanwhile. */
  refresh(kind: ListKind): Promise<void> {
    const running = this.inFlight.get(kind);
    if (running) {
      this.dirty.add(kind);
      return running;
    }
    const run = (async () => {
      do {
        this.dirty.delete(kind);
        await this.list(kind);
      } while (this.dirty.has(kind) && !this.session.closing());
    })().finally(() => this.inFlight.delete(kind));
    this.inFlight.set(kind, run);
    return run;
  }

  private async list(kind: ListKind): Promise<void> {
    const client = this.session.client();
    const caps = client?.getServerCapabilities();
    if (!client || !caps || this.session.closing()) return;
    const opts: RequestOptions = { timeout: this.session.timeoutMs };
    const guarded = async <T>(what: string, fetch: () => Promise<T[]>): Promise<T[] | undefined> => {
      try {
        return await this.session.untilEnded(fetch());
      } catch (err) {
        if (!(err instanceof ServerExited)) this.session.log(`listing ${what} failed: ${messageOf(err)}`);
        return undefined;
      }
    };
    if (kind === 'tools' && caps.tools) {
      const tools = await guarded('tools', () => listToolsLeniently(client, opts, (line) => this.session.log(line)));
      if (tools) this.tools = tools;
    } else if (kind === 'resources' && caps.resources) {
      const [resources, templates] = await Promise.all([
        guarded('resources', () => listResources(client, opts)),
        guarded('resource templates', () => listResourceTemplates(client, opts)),
      ]);
      if (resources) this.resources = resources;
      if (templates) this.resourceTemplates = templates;
    } else if (kind === 'prompts' && caps.prompts) {
      const prompts = await guarded('prompts', () => listPrompts(client, opts));
      if (prompts) this.prompts = prompts;
    } else {
      return;
    }
    this.session.changed();
  }
}
