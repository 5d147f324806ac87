import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startUpstreams, type Upstreams } from '../fakes/upstreams.js';
import { type BundledServer, startBundledServer } from './helpers/bundled-server.js';

/** web_search, get_weather and get_sports_scores over real stdio against fake Brave, wttr.in and ESPN. */

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('web server: public APIs', () => {
  let up: Upstreams;
  let workspace: string;
  let web: BundledServer;
  let keyless: BundledServer;
  let badKey: BundledServer;

  const call = async (server: BundledServer, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await server.client.callTool({ name, arguments: args })) as CallToolResult;

  before(async () => {
    up = await startUpstreams();
    workspace = mkdtempSync(join(tmpdir(), 'web-apis-'));
    // No MCP_AGENT_FETCH_ALLOW: the configured API bases are trusted on their own.
    const env = {
      BRAVE_SEARCH_URL: `${up.origin}/brave/search`,
      WEATHER_API_URL: `${up.origin}/weather`,
      ESPN_API_URL: `${up.origin}/espn`,
    };
    [web, keyless, badKey] = await Promise.all([
      startBundledServer('web', workspace, { ...env, BRAVE_API_KEY: 'good-key' }),
      startBundledServer('web', workspace, env),
      startBundledServer('web', workspace, { ...env, BRAVE_API_KEY: 'wrong' }),
    ]);
  });

  after(async () => {
    await Promise.all([web?.close(), keyless?.close(), badKey?.close()]);
    await up?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('web_search lists numbered results with plain-text descriptions and sends the key', async () => {
    const result = await call(web, 'web_search', { query: 'model context protocol', count: 3 });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.match(text, /^Web results for "model context protocol":/);
    assert.match(
      text,
      /1\. Model Context Protocol\n {3}https:\/\/modelcontextprotocol\.io\/\n {3}The Model Context Protocol is an open protocol & standard\. \(2 days ago\)/,
    );
    assert.match(text, /2\. MCP on GitHub\n {3}https:\/\/github\.com\/modelcontextprotocol\n {3}Specs & SDKs\./);
    assert.match(text, /3\. \(untitled\)\n {3}https:\/\/example\.com\/untitled/);
    const request = up.requests.find((r) => r.path.startsWith('/brave/search?'));
    assert.equal(request?.headers['x-subscription-token'], 'good-key');
    assert.match(request?.path ?? '', /q=model\+context\+protocol&count=3/);
  });

  test('web_search without a key says how to set one', async () => {
    const result = await call(keyless, 'web_search', { query: 'anything' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /MCP Agent: Set Brave Search Key/);
    assert.match(textOf(result), /BRAVE_API_KEY/);
  });

  test('web_search explains a rejected key, rate limits, outages and empty results', async () => {
    const rejected = await call(badKey, 'web_search', { query: 'anything' });
    assert.equal(rejected.isError, true);
    assert.match(textOf(rejected), /refused the API key \(HTTP 401\)/);
    const limited = await call(web, 'web_search', { query: 'ratelimit' });
    assert.match(textOf(limited), /rate limiting requests \(HTTP 429\); retry after 7 s/);
    const down = await call(web, 'web_search', { query: 'boom' });
    assert.match(textOf(down), /Brave Search is having trouble \(HTTP 503\)/);
    assert.equal(textOf(await call(web, 'web_search', { query: 'nothing' })), 'No web results for "nothing".');
  });

  test('get_weather summarises current conditions and the forecast', async () => {
    const result = await call(web, 'get_weather', { city: 'London' });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.match(text, /^Weather for London, City of London, Greater London, United Kingdom/);
    assert.match(text, /Now \(observed 2024-01-10 09:00 AM\): Light rain/);
    assert.match(text, /- Temperature: 11 °C \/ 52 °F/);
    assert.match(text, /- Feels like: 9 °C \/ 48 °F/);
    assert.match(text, /- Humidity: 81%/);
    assert.match(text, /- Wind: 19 km\/h \(12 mph\) from SW/);
    assert.match(text, /- 2024-01-10: 6–12 °C \(43–54 °F\), Patchy rain, 70% chance of rain/);
    assert.match(text, /- 2024-01-12: 2–8 °C \(36–46 °F\)$/m);
    assert.ok(up.requests.some((r) => r.path === '/weather/London?format=j1'));
  });

  test('get_weather names an unknown place and encodes odd city names', async () => {
    const unknown = await call(web, 'get_weather', { city: 'Nowhere' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /doesn't know a place called "Nowhere"/);
    await call(web, 'get_weather', { city: '../../etc/passwd' });
    assert.ok(
      up.requests.some((r) => r.path === '/weather/..%2F..%2Fetc%2Fpasswd?format=j1'),
      'path stays one segment',
    );
  });

  test('get_sports_scores summarises a team scoreboard', async () => {
    const result = await call(web, 'get_sports_scores', { league: 'NBA' });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.match(text, /^NBA scoreboard:/);
    assert.match(text, /- Boston Celtics 99 – 102 Los Angeles Lakers \(Final\) · 2024-01-10 03:30 UTC/);
    assert.match(text, /- Miami Heat 75 – 70 New York Knicks \(Q3 5:12\)/);
    assert.match(text, /- Chicago Bulls at Denver Nuggets \(1\/10 - 9:00 PM EST\)/);
  });

  test('get_sports_scores summarises racing, golf and tennis by their leaders', async () => {
    const f1 = textOf(await call(web, 'get_sports_scores', { league: 'F1' }));
    assert.match(f1, /- Bahrain Grand Prix \(Final\)[^\n]*\n {2}Leaders \(Race\):\n {4}1\. Max Verstappen\n {4}2\. Sergio Perez\n {4}3\. Carlos Sainz/);
    const golf = textOf(await call(web, 'get_sports_scores', { league: 'PGA' }));
    assert.match(
      golf,
      /- The Sentry \(Round 3 - In Progress\)[^\n]*\n {2}Leaders:\n {4}1\. Chris Kirk \(-18\)\n {4}2\. Collin Morikawa \(-15\)\n {4}3\. Sahith Theegala \(-14\)/,
    );
    const tennis = textOf(await call(web, 'get_sports_scores', { league: 'ATP' }));
    assert.match(tennis, /Australian Open[\s\S]*Jannik Sinner def\. Daniil Medvedev 6-3 6-4/);
  });

  test('get_sports_scores tolerates missing fields, empty boards and outages', async () => {
    const partial = await call(web, 'get_sports_scores', { league: 'NHL' });
    assert.equal(partial.isError, undefined, textOf(partial));
    assert.match(textOf(partial), /- Partial/);
    assert.equal(textOf(await call(web, 'get_sports_scores', { league: 'WNBA' })), "No WNBA events on ESPN's scoreboard right now.");
    const down = await call(web, 'get_sports_scores', { league: 'MLB' });
    assert.equal(down.isError, true);
    assert.match(textOf(down), /ESPN is having trouble \(HTTP 500\)/);
    const unknown = await call(web, 'get_sports_scores', { league: 'CRICKET' });
    assert.equal(unknown.isError, true);
  });

  test('the Brave key goes only to the configured origin, never where a redirect leads', async () => {
    const other = await startUpstreams();
    // The second server is reachable (allowed), so only the origin rule keeps the key from it.
    const redirected = await startBundledServer('web', workspace, {
      BRAVE_SEARCH_URL: `${up.origin}/brave/search`,
      BRAVE_API_KEY: 'good-key',
      MCP_AGENT_FETCH_ALLOW: other.hostPort,
    });
    try {
      const away = await call(redirected, 'web_search', { query: `redirect:${other.origin}/brave/search?q=elsewhere` });
      assert.equal(away.isError, true);
      assert.match(textOf(away), new RegExp(`Brave Search redirected to ${other.origin}, another origin than ${up.origin}, and the API key is only sent to`));
      const landed = other.requests.find((r) => r.path === '/brave/search?q=elsewhere');
      assert.ok(landed, 'the redirect was followed');
      assert.equal(landed.headers['x-subscription-token'], undefined, 'the second server never saw the key');

      // A redirect within the configured origin keeps the key.
      const within = await call(redirected, 'web_search', { query: 'redirect:/brave/search?q=model' });
      assert.equal(within.isError, undefined, textOf(within));
      assert.equal(up.requests.find((r) => r.path === '/brave/search?q=model')?.headers['x-subscription-token'], 'good-key');
    } finally {
      await redirected.close();
      await other.close();
    }
  });

  test('an answer over the size limit is refused, naming the limit', async () => {
    const tight = await startBundledServer('web', workspace, { WEATHER_API_URL: `${up.origin}/weather`, MCP_AGENT_FETCH_MAX_BYTES: '512' });
    try {
      const result = await call(tight, 'get_weather', { city: 'London' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /^wttr\.in sent more than 512 bytes \(the size limit of one call\); try a narrower request\.$/);
    } finally {
      await tight.close();
    }
  });

  test('trusting the configured API bases does not open them to fetch_url', async () => {
    const result = await call(web, 'fetch_url', { url: `${up.origin}/page` });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /loopback/);
  });

  test('every league maps to an ESPN scoreboard path', async () => {
    const { tools } = await web.client.listTools();
    const schema = tools.find((t) => t.name === 'get_sports_scores')?.inputSchema as unknown as { properties: { league: { enum: string[] } } };
    assert.equal(schema.properties.league.enum.length, 17);
    for (const league of ['NFL', 'MLS', 'EPL', 'NCAAF', 'NCAAM', 'NCAAW', 'UCL', 'WORLD_CUP', 'NWSL', 'WTA']) {
      await call(web, 'get_sports_scores', { league });
    }
    const paths = up.requests.map((r) => r.path);
    for (const path of [
      'football/nfl',
      'soccer/usa.1',
      'soccer/eng.1',
      'football/college-football',
      'basketball/mens-college-basketball',
      'basketball/womens-college-basketball',
      'soccer/uefa.champions',
      'soccer/fifa.world',
      'soccer/usa.nwsl',
      'tennis/wta',
    ]) {
      assert.ok(paths.includes(`/espn/${path}/scoreboard`), path);
    }
  });
});
