/**
 * An MCP App server whose views push on their host's limits (stdio). `flood`'s view asks for full screen and to
 * open a link as soon as it loads (no one has touched it), then, at a click on its buttons, asks for full screen
 * four times at once and to open five links at once. `evaluate`'s view runs code made at run time (eval and
 * new Function, as three.js scenes written by a model do) and then tries the network with it. `wide`'s view is
 * 376 px wide, wider than the side bar. Each writes what it was answered to `#report` as JSON, for the test.
 * Usage: node mcp-pushy-app.js --probe=http://127.0.0.1:PORT
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const probe = (process.argv.find((a) => a.startsWith('--probe=')) ?? '--probe=http://127.0.0.1:9').slice('--probe='.length);
const MIME = 'text/html;profile=mcp-app';

/** What every view does: JSON-RPC by hand (no SDK), its answers counted in `#report`, and its size told. */
const bridge = `
const report = {};
const out = document.getElementById('report');
const put = (k, v) => { report[k] = v; out.textContent = JSON.stringify(report); };
const add = (k, v) => { put(k, [...(report[k] || []), v]); put(k + 'Count', report[k].length); };
let nextId = 1;
const pending = new Map();
const send = (m) => window.parent.postMessage(m, '*');
const request = (method, params) => new Promise((resolve) => { const id = nextId++; pending.set(id, resolve); send({ jsonrpc: '2.0', id, method, params }); });
const outcome = (r) => r.error ? 'error: ' + r.error.message : r.result && r.result.isError ? 'refused' : 'ok: ' + JSON.stringify(r.result).slice(0, 200);
window.addEventListener('message', (e) => {
  const m = e.data;
  if (m && m.id !== undefined && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
});
const started = (async () => {
  const init = await request('ui/initialize', { appInfo: { name: 'pushy', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' });
  put('initialized', !!init.result);
  put('displayMode', init.result && init.result.hostContext && init.result.hostContext.displayMode);
  send({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
  send({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: document.body.scrollWidth, height: document.documentElement.scrollHeight } });
})();
`;

const page = (title: string, body: string, script: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="margin:0;font:13px sans-serif">${body}<pre id="report" style="white-space:pre-wrap;font-size:10px">{}</pre><script>${bridge}${script}</script></body></html>`;

const FLOOD = page(
  'flood',
  '<button id="fullscreen">Full screen ×4</button> <button id="links">Links ×5</button>',
  `
started.then(async () => {
  put('fullscreenUnasked', outcome(await request('ui/request-display-mode', { mode: 'fullscreen' })));
  put('linkUnasked', outcome(await request('ui/open-link', { url: 'https://example.com/unasked' })));
});
document.getElementById('fullscreen').addEventListener('click', () => {
  for (let i = 0; i < 4; i++) request('ui/request-display-mode', { mode: 'fullscreen' }).then((r) => add('fullscreen', outcome(r)));
});
document.getElementById('links').addEventListener('click', () => {
  for (let i = 1; i <= 5; i++) request('ui/open-link', { url: 'https://example.com/' + i }).then((r) => add('links', outcome(r)));
});
`,
);

const EVALUATE = page(
  'evaluate',
  '<canvas id="scene" width="120" height="60"></canvas>',
  `
started.then(async () => {
  try { put('eval', String(eval('6 * 7'))); } catch (e) { put('eval', 'blocked: ' + e.name); }
  try {
    const draw = new Function('canvas', 'const c = canvas.getContext("2d"); c.fillStyle = "rgb(200, 30, 30)"; c.fillRect(0, 0, 120, 60); return "drawn";');
    put('newFunction', draw(document.getElementById('scene')));
  } catch (e) { put('newFunction', 'blocked: ' + e.name); }
  // Code made at run time has the view's reach, no more: the network stays shut.
  try { const r = await new Function('url', 'return fetch(url)')('${probe}/eval-fetch'); put('fetch', 'reached: ' + r.status); } catch (e) { put('fetch', 'blocked: ' + e.name); }
  await new Promise((resolve) => { const img = new Image(); img.onload = () => { put('image', 'reached'); resolve(); }; img.onerror = () => { put('image', 'blocked'); resolve(); }; img.src = eval('"${probe}/eval-img"'); });
  put('done', true);
});
`,
);

const WIDE = page(
  'wide',
  '<div id="strip" style="width:376px;display:flex;justify-content:space-between;background:#d6e4ff"><span>left edge</span><span id="right-edge" style="background:#ffd6d6">right edge</span></div>',
  '',
);

const server = new McpServer({ name: 'pushy', version: '1.0.0' });
for (const [name, html, description] of [
  ['flood', FLOOD, 'Shows a view that asks for full screen and links many times.'],
  ['evaluate', EVALUATE, 'Shows a view that runs code made at run time.'],
  ['wide', WIDE, 'Shows a view 376 px wide.'],
] as const) {
  const uri = `ui://pushy/${name}.html`;
  server.registerTool(name, { description, inputSchema: {}, _meta: { ui: { resourceUri: uri } } }, () => ({
    content: [{ type: 'text', text: `${name} shown` }],
  }));
  server.registerResource(name, uri, { mimeType: MIME }, () => ({ contents: [{ uri, mimeType: MIME, text: html }] }));
}
void server.connect(new StdioServerTransport());
