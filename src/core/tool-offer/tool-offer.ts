import type Anthropic from '@anthropic-ai/sdk';
import type { HubTool } from '../mcp/types';
import type { ToolHost } from '../agent/types';
import { resolveTool } from '../tool-call/approved-call';
import { definitionOf, planTools, type ToolPlan } from './tool-plan';
import { badCall, CALL_TOOL, callTool, innerCall, searchTool, searchTools, SEARCH_TOOLS } from './host-search';
import { API_SEARCH_TOOL, fitSearchBlocks } from './search-blocks';
import type { ToolSearch } from './tool-search-mode';

/** The API's catalogue limit for its tool search ("Tool search tool", Limits). */
export const MAX_API_CATALOG = 10_000;

/** What one model call sends: its tools (the breakpoint on `cacheAt`), the conversation fitted to them, and the tools sent in full. */
export interface OfferedRequest {
  tools: Anthropic.ToolUnion[];
  /** The last tool of the stable prefix: deferred tools after it may change without moving it. */
  cacheAt: number;
  messages: Anthropic.MessageParam[];
  loaded: HubTool[];
  search: ToolSearch | undefined;
}

/**
 * What the model is offered of a host's tools, request by request: every tool when their
 * definitions fit the budget (tool-plan.ts), else the loaded ones plus a way to find the rest, by
 * the API's tool search (the rest sent with `defer_loading`) or the host's search_tools and call_tool.
 * `host` is the host the turn calls through: it answers search_tools.
 */
export class ToolOffer {
  private search: ToolSearch;
  /** The deferred tools of the last request: what search_tools searches, while the request offered it (and call_tool). */
  private deferred: HubTool[] = [];
  private offersSearchTools = false;
  readonly host: ToolHost;

  constructor(
    private readonly base: ToolHost,
    search: ToolSearch,
  ) {
    this.search = search;
    this.host = {
      tools: () => base.tools(),
      findTool: (name) =>
        name === SEARCH_TOOLS || name === CALL_TOOL
          ? this.offersSearchTools
            ? name === CALL_TOOL
              ? callTool
              : searchTool
            : undefined
          : resolveTool(base, name),
      ...(base.pinned ? { pinned: base.pinned.bind(base) } : {}),
      ...(base.statuses ? { statuses: base.statuses.bind(base) } : {}),
      callTool: (tool, args, options) => {
        const name = typeof tool === 'string' ? tool : tool.qualifiedName;
        return name === SEARCH_TOOLS
          ? Promise.resolve(searchTools(this.deferred, args))
          : name === CALL_TOOL
            ? Promise.resolve(badCall(args))
            : base.callTool(tool, args, options);
      },
    };
  }

  plan(): ToolPlan {
    return planTools(this.base);
  }

  /** The API refused its own tool search (a proxy, a model it does not serve): the host's is used from now on. */
  useHostSearch(): boolean {
    if (this.search === 'host') return false;
    this.search = 'host';
    return true;
  }

  request(history: readonly Anthropic.MessageParam[]): OfferedRequest {
    const plan = this.plan();
    this.deferred = plan.deferred;
    this.offersSearchTools = false;
    const loaded = plan.loaded.map(definitionOf);
    // Without the API's search tool in the request, its searches in the conversation go as text.
    if (plan.deferred.length === 0) {
      return { tools: loaded, cacheAt: loaded.length - 1, messages: fitSearchBlocks(history, () => false), loaded: plan.loaded, search: undefined };
    }
    if (this.search === 'api' && plan.all.length + 1 <= MAX_API_CATALOG) {
      const deferred = plan.deferred.map((t) => ({ ...definitionOf(t), defer_loading: true }));
      return {
        tools: [...loaded, API_SEARCH_TOOL, ...deferred],
        cacheAt: loaded.length,
        messages: fitSearchBlocks(history, named(plan.all)),
        loaded: plan.loaded,
        search: 'api',
      };
    }
    this.offersSearchTools = true;
    const tools = [...loaded, definitionOf(searchTool), definitionOf(callTool)];
    return {
      tools,
      cacheAt: tools.length - 1,
      messages: fitSearchBlocks(history, () => false),
      loaded: [...plan.loaded, searchTool, callTool],
      search: 'host',
    };
  }

  /** The call a tool use stands for: call_tool's is the tool it names, with its arguments. */
  unwrap(use: { name: string; input: unknown }): { name: string; input: Record<string, unknown> } {
    const inner = use.name === CALL_TOOL && this.offersSearchTools ? innerCall(use.input) : undefined;
    return inner ?? { name: use.name, input: (use.input ?? {}) as Record<string, unknown> };
  }

  /** What the model is told when it calls a name that is no tool (never the whole list: it may hold thousands). */
  unknownTool(name: string): string {
    const plan = this.plan();
    const some =
      plan.loaded
        .slice(0, 30)
        .map((t) => t.qualifiedName)
        .join(', ') || 'none';
    const more = plan.deferred.length > 0 ? `; ${plan.deferred.length.toLocaleString('en-US')} more can be found with the tool search tool` : '';
    return `There is no tool named ${name} (its server may have stopped, or the person turned it off). Loaded: ${some}${more}.`;
  }
}

function named(tools: readonly HubTool[]): (name: string) => boolean {
  const names = new Set(tools.map((t) => t.qualifiedName));
  return (name) => names.has(name);
}
