import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { type FetchLimits, limitsFromEnv } from '../lib/http-fetch.js';
import { type AllowList, parseAllowList } from '../lib/net-guard.js';
import { guarded } from '../lib/results.js';
import { apiAllowList } from '../lib/upstream-api.js';
import { DEFAULT_MAX_LENGTH, fetchUrl } from './fetch-url.js';
import { HtmlConverter } from './html-converter.js';
import { LEAGUE_HELP, LEAGUE_IDS } from './leagues.js';
import { DEFAULT_ESPN_URL, getSportsScores } from './sports.js';
import { DEFAULT_WEATHER_URL, getWeather } from './weather.js';
import { DEFAULT_BRAVE_URL, webSearch } from './web-search.js';

/** The web server: guarded page fetches plus search, weather and sports scores from public APIs. */

export interface WebConfig {
  /** What fetch_url may reach besides public addresses (MCP_AGENT_FETCH_ALLOW). */
  allow: AllowList;
  /** What the API tools may reach besides public addresses: that plus the configured API bases. */
  apiAllow: AllowList;
  limits: FetchLimits;
  braveUrl: string;
  braveKey: string | undefined;
  weatherUrl: string;
  espnUrl: string;
}

export function webConfigFromEnv(env: NodeJS.ProcessEnv = process.env): WebConfig {
  const allow = parseAllowList(env.MCP_AGENT_FETCH_ALLOW);
  return {
    allow,
    apiAllow: apiAllowList([env.BRAVE_SEARCH_URL, env.WEATHER_API_URL, env.ESPN_API_URL], allow),
    limits: limitsFromEnv(env),
    braveUrl: env.BRAVE_SEARCH_URL || DEFAULT_BRAVE_URL,
    braveKey: env.BRAVE_API_KEY?.trim() || undefined,
    weatherUrl: env.WEATHER_API_URL || DEFAULT_WEATHER_URL,
    espnUrl: env.ESPN_API_URL || DEFAULT_ESPN_URL,
  };
}

const online = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

/** The script the HTML-conversion workers run: the bundle built from html-worker-main.ts, beside this one. */
export const HTML_WORKER_FILE = 'web-html-worker.js';

/** `htmlWorkerFile`: the workers' script, by default HTML_WORKER_FILE next to the running bundle. */
export function buildWebServer(config: WebConfig = webConfigFromEnv(), htmlWorkerFile: string = join(__dirname, HTML_WORKER_FILE)): McpServer {
  const server = new McpServer({ name: 'web', title: 'MCP Agent web', version: '0.1.0' });
  const converter = new HtmlConverter({ workerFile: htmlWorkerFile });
  server.server.onclose = () => void converter.close();
  const fetchConfig = { ...config, convertHtml: converter.convert.bind(converter) };

  server.registerTool(
    'fetch_url',
    {
      title: 'Fetch a web page',
      description:
        'Downloads a public http(s) URL and returns its content as text: HTML as readable markdown, JSON pretty-printed, ' +
        `plain text as is. Long content comes in pages of max_length characters (default ${DEFAULT_MAX_LENGTH}); ` +
        'when cut, the answer says which start_index to call with next. Redirects on the same host are followed; a redirect to ' +
        'another host is not: the answer names the URL, to fetch with a call of its own. Local and private network addresses are refused.',
      inputSchema: {
        url: z.string().min(1).max(8192).describe('The http:// or https:// URL to fetch'),
        start_index: z.number().int().min(0).optional().describe('Character offset to start from (default 0), to read further pages'),
        max_length: z.number().int().min(1).max(200_000).optional().describe(`Most characters to return (default ${DEFAULT_MAX_LENGTH})`),
      },
      annotations: { title: 'Fetch a web page', ...online },
    },
    guarded('fetch_url', (args, extra) => fetchUrl(args, extra, fetchConfig)),
  );

  server.registerTool(
    'web_search',
    {
      title: 'Search the web',
      description: 'Searches the web with the Brave Search API and lists the results (title, URL, description). Needs a Brave API key.',
      inputSchema: {
        query: z.string().min(1).max(400).describe('What to search for'),
        count: z.number().int().min(1).max(20).optional().describe('How many results (1-20, default 10)'),
      },
      annotations: { title: 'Search the web', ...online, idempotentHint: false },
    },
    guarded('web_search', (args, extra) => webSearch(args, extra.signal, config), { heartbeat: true }),
  );

  server.registerTool(
    'get_weather',
    {
      title: 'Get the weather',
      description: 'Current weather and the forecast for the next days for a city, from wttr.in.',
      inputSchema: { city: z.string().min(1).max(100).describe('City name, e.g. "Paris" or "Portland, Oregon"') },
      annotations: { title: 'Get the weather', ...online, idempotentHint: false },
    },
    guarded('get_weather', (args, extra) => getWeather(args, extra.signal, config), { heartbeat: true }),
  );

  server.registerTool(
    'get_sports_scores',
    {
      title: 'Get sports scores',
      description: `Today's scoreboard for a league from ESPN: scores, game status and dates. Leagues: ${LEAGUE_HELP}.`,
      inputSchema: { league: z.enum(LEAGUE_IDS).describe(`The league: ${LEAGUE_HELP}`) },
      annotations: { title: 'Get sports scores', ...online, idempotentHint: false },
    },
    guarded('get_sports_scores', (args, extra) => getSportsScores(args, extra.signal, config), { heartbeat: true }),
  );

  return server;
}
