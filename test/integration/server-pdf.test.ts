// An MCP App server nobody here wrote: @modelcontextprotocol/server-pdf from npm (a devDependency), over
// stdio through the real hub and ChatSession, against the fake Messages API. Six of its nine tools are for
// its viewer only (`_meta.ui.visibility: ["app"]`): the model is never offered them and cannot call them;
// its view (ui://pdf-viewer/mcp-app.html, 4 MB of text/html;profile=mcp-app) never reaches the model as text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { READ_RESOURCE } from '../../src/core/agent/resource-tools';
import { readResourceAttachments, resourceRef } from '../../src/core/chat/attachments';
import { modelToolHost } from '../../src/core/tool-offer/tool-choices';
import { toolStates } from '../../src/core/tool-offer/tool-states';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { openTestChat, testTurn } from '../support/test-chat';
import { outsideServer } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const PDF_SERVER = outsideServer('server-pdf');
const VIEW = 'ui://pdf-viewer/mcp-app.html';
const MODEL_TOOLS = ['display_pdf', 'interact', 'list_pdfs'];
const APP_TOOLS = ['poll_pdf_commands', 'read_pdf_bytes', 'save_pdf', 'submit_page_data', 'submit_save_data', 'submit_viewer_state'];

/** The model: `call <tool> <json>` calls it, a result is echoed back. */
function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `tool said: ${lastUserText(body).slice(0, 3000)}` };
  const call = /call (\S+) (.*)$/.exec(lastUserText(body));
  return call ? { toolUses: [{ name: call[1]!, input: JSON.parse(call[2]!) as Record<string, unknown> }] } : { text: 'ok' };
}

describe('@modelcontextprotocol/server-pdf: app-only tools and the view stay away from the model', () => {
  const api = new FakeAnthropicApi(model);
  let dir: string;
  let hub: McpHub;
  let client: Anthropic;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'server-pdf-'));
    writeFileSync(
      join(dir, 'a.pdf'),
      '%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[]/Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
    );
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    hub = new McpHub([{ name: 'pdf', transport: 'stdio', command: process.execPath, args: [PDF_SERVER, '--stdio', dir] }], { connection: { roots: [dir] } });
    hub.start();
    await hub.settled();
    assert.equal(hub.status('pdf')?.state, 'ready', hub.status('pdf')?.error);
  });
  after(async () => {
    await hub.dispose();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function turn(text: string): Promise<ChatEvent[]> {
    const { session, events } = openTestChat(modelToolHost(hub), dir);
    await session.send(text, [], testTurn(client));
    await session.flush();
    return events;
  }

  const resultText = (events: ChatEvent[]): string =>
    events.flatMap((e) => (e.kind === 'tool_result' ? e.content.map((c) => (c.type === 'text' ? c.text : '')) : [])).join('\n');

  test('three of its nine tools are offered; the Tools view and /tools call the other six "for its app only"', T, async () => {
    assert.equal(hub.status('pdf')?.tools.length, 9);
    assert.deepEqual(
      hub
        .tools()
        .map((t) => t.tool.name)
        .sort(),
      MODEL_TOOLS,
    );
    const states = toolStates(hub.statuses(), modelToolHost(hub));
    const app = hub
      .status('pdf')!
      .tools.filter((t) => states.state('pdf', t) === 'app-only')
      .map((t) => t.name)
      .sort();
    assert.deepEqual(app, APP_TOOLS);
    const events = await turn('call pdf__list_pdfs {}');
    assert.match(resultText(events), /a\.pdf/);
    const sent = api.requests.at(-1)!.body.tools!.map((t) => t.name);
    for (const name of APP_TOOLS) assert.ok(!sent.includes(`pdf__${name}`), name);
  });

  test('an app-only tool the model names is refused, never called', T, async () => {
    const events = await turn(`call pdf__save_pdf {"url":"file://${dir}/a.pdf","data":""}`);
    assert.match(resultText(events), /There is no tool named pdf__save_pdf/);
  });

  test("the view's HTML is never fed to the model: read_mcp_resource and an attached resource give a note", T, async () => {
    const read = await hub.readResource('pdf', VIEW);
    assert.ok((read.contents[0] as { text?: string }).text!.length > 100_000, 'the view is megabytes of HTML');
    const before = api.requests.length;
    const events = await turn(`call ${READ_RESOURCE} {"server":"pdf","uri":"${VIEW}"}`);
    assert.match(resultText(events), /ui:\/\/pdf-viewer\/mcp-app\.html is the view of an MCP App/);
    for (const r of api.requests.slice(before)) assert.doesNotMatch(JSON.stringify(r.body), /<!doctype html|<script/i);
    const attached = await readResourceAttachments((s, u) => hub.readResource(s, u), [resourceRef('pdf', VIEW)]);
    assert.doesNotMatch(attached.blocks.join('\n'), /<!doctype html/i);
    assert.match(attached.blocks.join('\n'), /view of an MCP App/);
  });
});
