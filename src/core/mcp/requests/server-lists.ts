import type { Client, Prompt, RequestOptions, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import { ServerExited } from '../session/errors';
import { listPrompts, listResources, listResourceTemplates, listToolsLeniently, type Listed } from './offer-lists';
import { invalidSchemas } from './tool-schema-check';
import { messageOf } from '../../../node/error-message';

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
  /** True when the server tells of this list's changes as they happen (a `subscriptions/listen` stream): it is kept until then. */
  watched?(kind: ListKind): boolean;
}

/** What one server offers (tools, resources and templates, prompts), listed again when it says they changed. */
export class ServerLists {
  tools: Tool[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  /** Tools never offered to the model, by name, with why: their inputSchema is not valid JSON Schema. */
  invalidSchemas = new Map<string, string>();
  private readonly inFlight = new Map<ListKind, Promise<void>>();
  private readonly dirty = new Set<ListKind>();
  /** The lists whose last listing failed, with why. */
  private readonly failed = new Map<ListKind, string>();
  /** When each list may no longer be kept, as the server said (`ttlMs`, 2026-07-28); absent: until it says it changed. */
  private readonly expires = new Map<ListKind, number>();
  /**
   * Kinds being listed again only for their age: an unchanged answer then says nothing, or a listener that asks for
   * the lists on each change would have a server whose lists keep 0 ms listed over and over.
   */
  private readonly revalidating = new Set<ListKind>();

  constructor(private readonly session: ListSession) {}

  refreshAll(): Promise<void> {
    return Promise.all((['tools', 'resources', 'prompts'] as const).map((k) => this.refresh(k))).then(() => undefined);
  }

  /**
   * Lists again each list kept past the time the server gave it (`ttlMs`; 0 is "ask every time"), unless the server
   * tells of its changes as they happen.
   */
  refreshStale(now = Date.now()): Promise<void> {
    const stale = [...this.expires].filter(([kind, at]) => at <= now && !this.session.watched?.(kind)).map(([kind]) => kind);
    for (const kind of stale) this.revalidating.add(kind);
    return Promise.all(stale.map((k) => this.refresh(k))).then(() => undefined);
  }

  /** True when the server declares lists and every one of them failed the last time. */
  allFailed(): boolean {
    const caps = this.session.client()?.getServerCapabilities();
    const declared = (['tools', 'resources', 'prompts'] as const).filter((k) => caps?.[k]);
    return declared.length > 0 && declared.every((k) => this.failed.has(k));
  }

  /** Why the last listing of `kind` failed; undefined when it did not. */
  failure(kind: ListKind): string | undefined {
    return this.failed.get(kind);
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
    const forAge = this.revalidating.delete(kind);
    const before = forAge ? this.signature(kind) : undefined;
    this.failed.delete(kind);
    const guarded = async <T>(what: string, fetch: () => Promise<Listed<T>>): Promise<T[] | undefined> => {
      try {
        const listed = await this.session.untilEnded(fetch());
        if (listed.ttlMs !== undefined) this.expires.set(kind, Date.now() + Math.max(0, listed.ttlMs));
        else this.expires.delete(kind);
        return listed.items;
      } catch (err) {
        this.failed.set(kind, messageOf(err));
        if (!(err instanceof ServerExited)) this.session.log(`listing ${what} failed: ${messageOf(err)}`);
        return undefined;
      }
    };
    if (kind === 'tools' && caps.tools) {
      const tools = await guarded('tools', () => listToolsLeniently(client, opts, (line) => this.session.log(line)));
      if (tools) this.setTools(tools);
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
    if (before !== undefined && before === this.signature(kind)) return;
    this.session.changed();
  }

  /** A listing's tools; each whose inputSchema is invalid is said once, until it changes. */
  private setTools(tools: Tool[]): void {
    const invalid = invalidSchemas(tools);
    for (const [name, why] of invalid) {
      if (this.invalidSchemas.get(name) !== why)
        this.session.log(`tool "${name}" is left out for the model: its inputSchema is not valid JSON Schema (${why}), which the Messages API refuses`);
    }
    this.tools = tools;
    this.invalidSchemas = invalid;
  }

  private signature(kind: ListKind): string {
    return JSON.stringify(kind === 'tools' ? this.tools : kind === 'resources' ? [this.resources, this.resourceTemplates] : this.prompts);
  }
}
