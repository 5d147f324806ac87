/**
 * How deferred tools are found: by the Messages API's own tool search tool (`api`: the tool search
 * tool and `defer_loading`, the found definitions expanded by the API in the conversation, so the
 * cached prefix stays), or by tools of the host's own (`host`: search_tools returns definitions,
 * call_tool calls one). The person may force either (`mcpAgent.toolSearch`,
 * the CLI's MCP_AGENT_TOOL_SEARCH); `auto` takes the API's where it is known to be there.
 */
export type ToolSearchSetting = 'auto' | 'api' | 'host';
export type ToolSearch = 'api' | 'host';

export const TOOL_SEARCH_SETTINGS: readonly ToolSearchSetting[] = ['auto', 'api', 'host'];

/** The Messages API the SDK talks to when no base URL is set. */
const ANTHROPIC_HOSTS = new Set(['api.anthropic.com']);

/**
 * The models the API's tool search serves: Claude 4.5 and later of every line, and the newer
 * families (the docs' list, "Tool search tool", 2026). Claude 3 and the first Claude 4 models
 * (`claude-sonnet-4-20250514`, `claude-opus-4-1-…`) do not have it.
 */
export function modelHasToolSearch(model: string): boolean {
  if (/^claude-(fable|mythos)-/.test(model)) return true;
  // `claude-sonnet-4-5-20250929`: a date is not a minor version, so `(?!\d)` stops at one digit.
  const m = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/.exec(model);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = Number(m[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 5);
}

/** Model and base URL pairs whose API refused its own tool search in this process. */
const refused = new Set<string>();

/** The API at `baseURL` refused its tool search for `model`: every later chat there searches on the host. */
export function rememberRefusal(model: string, baseURL: string | undefined): void {
  refused.add(`${baseURL ?? ''}\0${model}`);
}

/**
 * `auto`: the API's search for a model that has it, on Anthropic's own API. Behind another base URL
 * (a proxy, a gateway, a local model server) nobody can say the server-side tool is there, and a
 * request it does not know fails whole; the host's own search works on any Messages API (Claude Code
 * draws the same line). A request the API still refuses falls back to the host's search (agent.ts),
 * and so does every later one to that API and model, whatever the setting.
 */
export function toolSearchFor(model: string, baseURL: string | undefined, setting: ToolSearchSetting = 'auto'): ToolSearch {
  if (refused.has(`${baseURL ?? ''}\0${model}`)) return 'host';
  if (setting !== 'auto') return setting;
  return modelHasToolSearch(model) && isAnthropicApi(baseURL) ? 'api' : 'host';
}

function isAnthropicApi(baseURL: string | undefined): boolean {
  if (!baseURL) return true;
  try {
    const url = new URL(baseURL);
    return url.protocol === 'https:' && ANTHROPIC_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** A setting's value as given (settings, an environment variable); anything else is `auto`. */
export function parseToolSearch(value: unknown): ToolSearchSetting {
  return TOOL_SEARCH_SETTINGS.includes(value as ToolSearchSetting) ? (value as ToolSearchSetting) : 'auto';
}
