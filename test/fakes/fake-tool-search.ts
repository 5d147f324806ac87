/**
 * The fake Messages API's tool search and deferred loading, as the API documents them
 * (platform.claude.com, "Tool search tool"): a tool with `defer_loading: true` is not in the prompt;
 * the model sees it only once a `tool_reference` names it, either in a `tool_search_tool_result` of the
 * server's own search (`tool_search_tool_bm25_20251119` / `_regex_`) or in the content of a `tool_result`
 * (a client-side search), and the reference is then expanded to the full definition at that place in
 * the conversation, so the cached prefix before it stays as it was. The API refuses a request whose
 * tools are all deferred, a reference to a tool it was not given, and more than 10,000 tools with a
 * search; a model that has no tool search cannot be given the tool. (Error wording is the fake's.)
 *
 * This is written apart from the product's search on purpose: it is the server side, not ours.
 */
import type { MessagesBody, ToolSearchStep } from './anthropic-api';

export interface ToolDefinition {
  name: string;
  type?: string;
  description?: string;
  input_schema?: unknown;
  defer_loading?: boolean;
  cache_control?: unknown;
}

/** The catalogue limit the docs give. */
export const MAX_SEARCH_CATALOG = 10_000;
/** The docs' list of models with tool search (and the fake's own newer ones). */
const SUPPORTED = [/^claude-(opus|sonnet|haiku)-5/, /^claude-(fable|mythos)-/, /^claude-opus-4-([5-9])/, /^claude-sonnet-4-([5-9])/, /^claude-haiku-4-5/];

export function modelHasToolSearch(model: string): boolean {
  return SUPPORTED.some((re) => re.test(model));
}

const isSearchTool = (t: ToolDefinition): boolean => /^tool_search_tool_(bm25|regex)(_\d+)?$/.test(t.type ?? '');

/** The server's search tool of the request, if it has one. */
export function searchToolOf(body: MessagesBody): ToolDefinition | undefined {
  return (body.tools ?? []).find(isSearchTool);
}

/** Names a `tool_reference` block anywhere in the conversation points at. */
export function referencedNames(body: MessagesBody): string[] {
  const out: string[] = [];
  for (const m of body.messages) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) out.push(...referencesIn(b));
  }
  return out;
}

/** The references one content block carries (a search result, or a tool_result of a client-side search). */
export function referencesIn(block: Record<string, unknown>): string[] {
  if (block.type === 'tool_search_tool_result') {
    const content = block.content as { type?: string; tool_references?: Array<{ tool_name: string }> } | undefined;
    return content?.type === 'tool_search_tool_search_result' ? (content.tool_references ?? []).map((r) => r.tool_name) : [];
  }
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    return (block.content as Array<{ type?: string; tool_name?: string }>).flatMap((c) => (c.type === 'tool_reference' && c.tool_name ? [c.tool_name] : []));
  }
  return [];
}

/** Why the API would refuse this request's tools (a 400), or undefined. */
export function toolSearchProblem(body: MessagesBody): string | undefined {
  const tools = (body.tools ?? []) as ToolDefinition[];
  const search = tools.find(isSearchTool);
  const deferred = tools.filter((t) => t.defer_loading === true);
  if (search && !modelHasToolSearch(body.model)) return `tools: '${search.type}' is not supported on model '${body.model}'`;
  if (search?.defer_loading) return 'tools: the tool search tool cannot have defer_loading set';
  if (deferred.length > 0 && deferred.length === tools.length) return 'All tools have defer_loading set. At least one tool must be non-deferred.';
  if (search && tools.length > MAX_SEARCH_CATALOG) return `tools: at most ${MAX_SEARCH_CATALOG} tools may be given with tool search, got ${tools.length}`;
  const names = new Set(tools.map((t) => t.name));
  const unknown = referencedNames(body).find((n) => !names.has(n));
  if (unknown !== undefined) return `Tool reference '${unknown}' has no corresponding tool definition`;
  return undefined;
}

/** What the model can see and call: tools sent in full, and deferred ones once referenced (before `more`). */
export function visibleTools(body: MessagesBody, more: readonly string[] = []): Set<string> {
  const tools = (body.tools ?? []) as ToolDefinition[];
  const referenced = new Set([...referencedNames(body), ...more]);
  return new Set(tools.filter((t) => !isSearchTool(t) && (!t.defer_loading || referenced.has(t.name))).map((t) => t.name));
}

/** The deferred tools of the request, by name. */
export function deferredTools(body: MessagesBody): Map<string, ToolDefinition> {
  return new Map(((body.tools ?? []) as ToolDefinition[]).filter((t) => t.defer_loading === true).map((t) => [t.name, t]));
}

/**
 * The server's search over the deferred tools: names, descriptions and argument names and
 * descriptions; the best five with any match. BM25 takes words (a term in fewer tools weighs more);
 * regex takes a pattern, tried case-insensitively.
 */
export function runSearch(body: MessagesBody, variant: 'bm25' | 'regex', query: string): string[] {
  const docs = [...deferredTools(body).values()].map((t) => ({ name: t.name, text: searchableText(t) }));
  if (variant === 'regex') {
    const re = new RegExp(query, 'i');
    return docs
      .filter((d) => re.test(d.text))
      .slice(0, 5)
      .map((d) => d.name);
  }
  const terms = words(query);
  const tokenized = docs.map((d) => ({ name: d.name, words: new Set(words(d.text)) }));
  const idf = new Map(terms.map((term) => [term, Math.log(1 + tokenized.length / (1 + tokenized.filter((d) => d.words.has(term)).length))]));
  return tokenized
    .map((d) => ({ name: d.name, score: terms.reduce((s, term) => s + (d.words.has(term) ? idf.get(term)! : 0), 0) }))
    .filter((d) => d.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map((d) => d.name);
}

function searchableText(t: ToolDefinition): string {
  const props = ((t.input_schema as { properties?: Record<string, { description?: string }> } | undefined)?.properties ?? {}) as Record<
    string,
    { description?: string }
  >;
  return [t.name, t.description ?? '', ...Object.entries(props).flatMap(([k, v]) => [k, v.description ?? ''])].join(' ');
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

export interface SearchResult {
  type: 'tool_search_tool_search_result';
  tool_references: Array<{ type: 'tool_reference'; tool_name: string }>;
}

/** A search the scripted model made: its two blocks, and what it found. */
export interface Searched {
  blocks: Array<
    | { type: 'server_tool_use'; id: string; name: string; input: Record<string, unknown>; caller: { type: 'direct' } }
    | { type: 'tool_search_tool_result'; tool_use_id: string; content: SearchResult }
  >;
  found: string[];
}

let searches = 0;

/** The model's search, run as the server runs it: its server_tool_use and tool_search_tool_result blocks. */
export function searchBlocks(body: MessagesBody, step: ToolSearchStep): Searched | { error: string } {
  const tool = searchToolOf(body);
  if (!tool) return { error: 'fake model: the script searches for tools, but the request has no tool search tool' };
  const found = runSearch(body, /regex/.test(tool.type ?? '') ? 'regex' : 'bm25', step.query);
  const id = `srvtoolu_fake_${++searches}`;
  return {
    found,
    blocks: [
      { type: 'server_tool_use', id, name: tool.name, input: { query: step.query }, caller: { type: 'direct' } },
      {
        type: 'tool_search_tool_result',
        tool_use_id: id,
        content: { type: 'tool_search_tool_search_result', tool_references: found.map((n) => ({ type: 'tool_reference', tool_name: n })) },
      },
    ],
  };
}

/**
 * A model calls only what it can see: a deferred tool that no search has referenced is not in its context.
 * A script that calls one is wrong about the model, and the test is told so (a 500), instead of passing on a
 * request the real API would never answer that way.
 */
export function blindCall(body: MessagesBody, calls: readonly string[], found: readonly string[]): string | undefined {
  const deferred = deferredTools(body);
  const visible = visibleTools(body, found);
  const blind = calls.find((name) => deferred.has(name) && !visible.has(name));
  return blind && `fake model: the script calls ${blind}, which is deferred and was never found by a search, so the model cannot see it`;
}
