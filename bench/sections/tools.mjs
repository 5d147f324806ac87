// Many tools: definition tokens per request at 22 / 322 / 1,022 / 10,022 tools (ours against sending them all
// and against the 128-tool cap of before), model calls to reach a tool that is not loaded, and the share of
// input read from the prompt cache over a 20-turn chat with a 1,000-tool server.
import { join } from 'node:path';
import { ROOT } from '../lib/setup.mjs';
import { loadDriver } from '../lib/driver.mjs';
import { fmtRatio, ratio } from '../lib/stats.mjs';

const num = (n) => n.toLocaleString('en-US');
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const calls = (reached) =>
  reached.length === 0 ? '-' : Math.max(...reached) === Math.min(...reached) ? String(reached[0]) : `${Math.min(...reached)}-${Math.max(...reached)}`;

export async function benchTools() {
  const driver = await loadDriver('bench/tools-driver.ts');
  const dist = join(ROOT, 'dist');
  const fakes = join(ROOT, 'out', 'test', 'fakes');
  const sizes = await driver.benchSizes(dist, fakes, [0, 300, 1000, 10000]);
  const api = await driver.benchChat(dist, fakes, 1000, 'api');
  const host = await driver.benchChat(dist, fakes, 1000, 'host');
  const at1000 = sizes[2];
  const rows = [
    ...sizes.map((s) => [
      `definition tokens per request, ${num(s.tools)} tools`,
      num(s.api),
      num(s.host),
      num(s.all),
      `${num(s.cap)}${s.capReachesLast ? '' : ' *'}`,
      s.tools > 1000 ? '-' : '',
    ]),
    [
      '  ours (API search) / all, 1,022 tools',
      fmtRatio(ratio(at1000.api, at1000.all)),
      fmtRatio(ratio(at1000.host, at1000.all)),
      '1.00x',
      fmtRatio(ratio(at1000.cap, at1000.all)),
      '≤ 0.05x',
    ],
    ['model calls to reach a tool not loaded (20 turns)', calls(api.reachedAt), calls(host.reachedAt), '1', 'never *', '≤ 2'],
    ['input read from the cache, calls 2..n (20 turns, 1,022 tools)', pct(api.readShareAfterFirst), pct(host.readShareAfterFirst), '-', '-', '≥ 90 %'],
  ];
  return {
    title: 'Many tools: definitions per request, reaching a tool, the prompt cache',
    header: ['measure', "ours: API's tool search", "ours: host's search_tools", 'send all', 'before: 128, round-robin', 'aim'],
    rows,
    notes: [
      'tools = the bundled servers (22 with the resource tools) plus test/fakes/mcp-many-tools.ts with 300, 1,000 or 10,000 tools of about 90 tokens each, through the real hub over stdio',
      "tokens as the fake API bills the request's tools (four characters a token; deferred definitions are not in the prompt), from the first request of a chat",
      `past 10,000 tools the API's tool search is not used (its catalogue limit): that row's API column is the host's search`,
      "send all and the old cap, for reaching a tool: by construction (a tool sent is called at once); * the old cap left out every tool past the 128 taken, the catalogue's last one included, and calling one failed",
      `20-turn chats: each turn the model searches for another catalogue tool, calls it and answers (${api.calls} model calls with the API's search, ${host.calls} with search_tools); the fake's prompt cache works like the real one`,
    ],
    data: { sizes, api, host },
  };
}
