import { safeUrl } from '../transport/http-url';
import type { HttpServerConfig, ServerConfig, StdioServerConfig } from '../types';

/** Why a config cannot be started, before anything is spawned or fetched (either would fail at once). */
export function configProblem(config: ServerConfig): string | undefined {
  const transport = (config as { transport?: unknown }).transport;
  if (transport === 'http' || transport === 'sse') return httpProblem(config as Partial<HttpServerConfig>);
  if (transport !== 'stdio') return `transport "${String(transport)}" is not supported here (stdio, http or sse)`;
  const c = config as Partial<StdioServerConfig>;
  if (typeof c.command !== 'string' || c.command.trim() === '') return 'the config has no command to run';
  const strings = [c.command, ...(c.args ?? []), ...Object.entries(c.env ?? {}).flat(), c.cwd ?? ''];
  if (strings.some((v) => typeof v !== 'string')) return 'every argument and environment value must be a string';
  if (strings.some((v) => v.includes('\0'))) return 'the command, an argument or an environment value holds a NUL byte, which no program can be given';
  return undefined;
}

function httpProblem(c: Partial<HttpServerConfig>): string | undefined {
  if (typeof c.url !== 'string' || c.url.trim() === '') return 'the config has no url to connect to';
  let url: URL;
  try {
    url = new URL(c.url);
  } catch {
    return `"${safeUrl(c.url)}" is not a URL (write it in full, e.g. http://127.0.0.1:3000/mcp)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${safeUrl(c.url)}: only http: and https: URLs can be connected to`;
  const headers = Object.entries(c.headers ?? {});
  if (headers.some(([k, v]) => typeof v !== 'string' || /[\r\n\0]/.test(k + v))) {
    return 'every header value must be a string on one line';
  }
  return undefined;
}
