// Resources and prompts in the conversation, through real servers over stdio (the purpose-built notes
// server and server-everything), the real hub, ChatSession and the CLI, with the fake Anthropic API:
// the host's list_mcp_resources / read_mcp_resource tools (no approval, images as images), and prompts
// whose messages keep their roles, embedded resources and images.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { LIST_RESOURCES, READ_RESOURCE, withResourceTools } from '../../src/core/agent/resource-tools';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { newChatId, newMeta } from '../../src/core/chat/chat-meta';
import { ChatSession, type TurnConfig } from '../../src/core/chat/chat-session';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { memoryStore } from '../fakes/tool-host';
import { runCli } from './helpers/cli-process';
import { parseResourceRef, readResourceAttachments, resourceRef } from '../../src/core/chat/attachments';
import { fake, fakeConfig, textOf } from './mcp-support';
import { outsideServer } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(90_000) };
const EVERYTHING = outsideServer('server-everything');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** The model: `read <server> <uri>` calls read_mcp_resource; a tool result is echoed back; anything else too. */
function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `tool said: ${lastUserText(body).slice(0, 2000)}` };
  const text = lastUserText(body);
  const read = /read (\S+) (\S+)/.exec(text);
  if (read) return { toolUses: [{ name: READ_RESOURCE, input: { server: read[1], uri: read[2] } }] };
  return { text: `echo: ${text.slice(0, 500)}` };
}

type Block = Record<string, unknown> & { type: string };
const blocksOf = (m: MessagesBody['messages'][number]): Block[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Block[]);

describe('resources and prompts in the conversation', () => {
  const api = new FakeAnthropicApi(model);
  let hub: McpHub;
  let dir: string;
  let client: Anthropic;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'resources-conv-'));
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    hub = new McpHub([fakeConfig('notes', 'mcp-prompts'), { name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }]);
    hub.start();
    await hub.settled();
    assert.deepEqual(
      hub.statuses().map((s) => s.state),
      ['ready', 'ready'],
    );
  });
  after(async () => {
    await hub.dispose();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (): TurnConfig => ({ client, model: 'claude-sonnet-4-5', maxTokens: 1024, maxIterations: 4, toolTimeoutMs: 20_000, keyHint: '' });
  const chat = (asked: string[]): ChatSession => {
    const history = new ChatHistory(join(dir, 'chats'));
    const meta = newMeta(newChatId(), 'claude-sonnet-4-5');
    return new ChatSession({
      meta,
      store: history.store(meta.id),
      host: withResourceTools(hub),
      workspace: dir,
      approvals: memoryStore(),
      ask: async (request) => {
        asked.push(request.tool.qualifiedName);
        return 'deny';
      },
    });
  };

  test("the host tools are offered beside the servers' tools, under names no server tool can have", T, async () => {
    const tools = withResourceTools(hub).tools();
    const names = tools.map((t) => t.qualifiedName);
    assert.ok(names.includes(LIST_RESOURCES) && names.includes(READ_RESOURCE));
    // Every server tool is `<server>__<tool>`; the host's have no `__`.
    assert.ok(names.filter((n) => n !== LIST_RESOURCES && n !== READ_RESOURCE).every((n) => n.includes('__')));
    for (const t of tools.filter((t) => t.server === 'mcp-agent')) assert.equal(t.tool.annotations?.readOnlyHint, true);
  });

  test("list_mcp_resources lists every ready server's resources and templates; one server on request", T, async () => {
    const tools = withResourceTools(hub);
    const all = textOf(await tools.callTool(LIST_RESOURCES, {}));
    assert.match(all, /^notes:\n {2}notes:\/\/readme {2}Read me \(text\/markdown\)/m);
    assert.match(all, /notes:\/\/files\/\{name\} {2}template: A note file/);
    assert.match(all, /^everything:$/m);
    assert.match(all, /demo:\/\/resource\/static\/document\/|test:\/\/|everything:\/\//);
    const one = textOf(await tools.callTool(LIST_RESOURCES, { server: 'notes' }));
    assert.doesNotMatch(one, /everything:/);
    const bad = await tools.callTool(LIST_RESOURCES, { server: 'nobody' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /No ready server named nobody offers resources\. Servers with resources: notes, everything\./);
  });

  test('read_mcp_resource: text as text, an image as an image, other binary named; bad input and servers answered as errors', T, async () => {
    const tools = withResourceTools(hub);
    assert.equal(
      textOf(await tools.callTool(READ_RESOURCE, { server: 'notes', uri: 'notes://readme' })),
      'Resource notes://readme (text/markdown):\n# Notes\nTHE-README-TEXT',
    );
    assert.equal(
      textOf(await tools.callTool(READ_RESOURCE, { server: 'notes', uri: 'notes://files/x.md' })),
      'Resource notes://files/x.md (text/plain):\nFILE x.md',
    );
    const image = await tools.callTool(READ_RESOURCE, { server: 'notes', uri: 'notes://pixel.png' });
    assert.deepEqual(image.content, [{ type: 'image', mimeType: 'image/png', data: PNG }]);
    assert.match(
      textOf(await tools.callTool(READ_RESOURCE, { server: 'notes', uri: 'notes://blob.bin' })),
      /\[resource notes:\/\/blob\.bin: 4 bytes of application\/octet-stream, binary, not shown\]/,
    );
    const missing = await tools.callTool(READ_RESOURCE, { server: 'notes', uri: 'notes://nothing' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /^Could not read notes:\/\/nothing from notes: /);
    const noServer = await tools.callTool(READ_RESOURCE, { server: 'gone', uri: 'x://y' });
    assert.match(textOf(noServer), /^Server gone does not exist\. Servers with resources: notes, everything\.$/);
    const badInput = await tools.callTool(READ_RESOURCE, { uri: 7 });
    assert.equal(badInput.isError, true);
    assert.match(textOf(badInput), /^Bad input: .*server.*\n?.*Give \{ "server"/s);
  });

  test('the model reads a resource in a turn without an approval; an image reaches it as an image', T, async () => {
    const asked: string[] = [];
    const session = chat(asked);
    const before = api.requests.length;
    assert.equal(await session.send('read notes notes://pixel.png', [], config()), 'done');
    assert.deepEqual(asked, []);
    const second = api.requests[before + 1]!.body;
    const result = blocksOf(second.messages.at(-1)!).find((b) => b.type === 'tool_result')!;
    assert.deepEqual(
      (result.content as Block[]).find((b) => b.type === 'image'),
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    );
    assert.ok(api.requests[before]!.body.tools?.some((t) => t.name === READ_RESOURCE));
    const card = session.events.find((e) => e.kind === 'tool_call');
    assert.deepEqual(card && [card.server, card.tool], ['mcp-agent', READ_RESOURCE]);
  });

  test('an attached resource (Add to Chat, /resource): text as a context block, an image as an image, binary named, failures said', T, async () => {
    const refs = ['notes://readme', 'notes://pixel.png', 'notes://blob.bin'].map((uri) => resourceRef('notes', uri));
    assert.deepEqual(parseResourceRef(refs[0]!), { server: 'notes', uri: 'notes://readme' });
    assert.equal(parseResourceRef('src/a.py'), undefined);
    const read = await readResourceAttachments((server, uri) => hub.readResource(server, uri), [...refs, resourceRef('gone', 'x://y'), '@resource:bad']);
    assert.deepEqual(read.blocks, [
      '<attached_resource server="notes" uri="notes://readme" mimeType="text/markdown">\n# Notes\nTHE-README-TEXT\n</attached_resource>',
      '<attached_resource server="notes" uri="notes://pixel.png" mimeType="image/png">(the image below)</attached_resource>',
      '<attached_resource server="notes" uri="notes://blob.bin">[application/octet-stream content, not sent]</attached_resource>',
    ]);
    assert.deepEqual(read.images, [{ mimeType: 'image/png', data: PNG }]);
    assert.equal(read.errors.length, 2);
    assert.match(read.errors[0]!, /^Could not attach x:\/\/y from gone: /);
    assert.match(read.errors[1]!, /^Could not attach @resource:bad: not a resource reference$/);
  });

  test('a prompt keeps its roles, its embedded resource and its image; the chat shows its name and messages', T, async () => {
    const session = chat([]);
    const result = await hub.getPrompt('notes', 'review', { file: 'a.md' });
    const before = api.requests.length;
    assert.equal(await session.sendPrompt({ server: 'notes', name: 'review', args: { file: 'a.md' }, result }, config()), 'done');
    const sent = api.requests[before]!.body.messages;
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(blocksOf(sent[1]!)[0]!.text, 'ASSISTANT-TURN: which parts?');
    const last = blocksOf(sent[2]!);
    assert.ok(last.some((b) => b.type === 'text' && b.text === '<resource uri="notes://files/a.md" mimeType="text/plain">\nEMBEDDED-a.md\n</resource>'));
    assert.ok(last.some((b) => b.type === 'image'));
    assert.ok(last.some((b) => b.type === 'text' && /^\[resource notes:\/\/readme \(readme\)/.test(String(b.text))));
    const shown = session.events.find((e) => e.kind === 'user');
    assert.ok(shown?.kind === 'user' && shown.prompt);
    assert.equal(shown.text, '/prompt notes/review file=a.md');
    assert.deepEqual(
      shown.prompt.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'user', 'user', 'user'],
    );
    assert.equal(session.info.title, 'notes/review');
  });

  test('a prompt that ends with the assistant still ends the conversation with the person, and the next message follows on', T, async () => {
    const session = chat([]);
    const before = api.requests.length;
    await session.sendPrompt({ server: 'notes', name: 'assistant_last', result: await hub.getPrompt('notes', 'assistant_last') }, config());
    assert.deepEqual(
      api.requests[before]!.body.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(await session.send('and then?', [], config()), 'done');
    assert.deepEqual(
      api.requests.at(-1)!.body.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user'],
    );
  });
});

describe('the CLI: /prompt keeps roles, the model reads resources', () => {
  const api = new FakeAnthropicApi(model);
  let env: Record<string, string>;
  let ws: string;
  let config: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-resources-'));
    config = join(ws, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [fake('mcp-prompts')] } } }));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test("/prompt sends the prompt's messages with their roles, not one flattened message", T, async () => {
    const before = api.requests.length;
    const r = await runCli(['--workspace', ws, '--mcp-config', config], env, '/prompt notes/review file=a.md\ny\nexit\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[prompt notes\/review: 6 messages: user, assistant, user, user, user, user\]/);
    const sent = api.requests.slice(before).find((q) => q.body.messages.some((m) => JSON.stringify(m.content).includes('ASSISTANT-TURN')));
    assert.ok(sent, 'the prompt reached the model');
    const assistant = sent.body.messages.find((m) => m.role === 'assistant');
    assert.ok(assistant && JSON.stringify(assistant.content).includes('ASSISTANT-TURN'), 'the assistant message kept its role');
    assert.ok(
      sent.body.messages.some((m) => m.role === 'user' && blocksOf(m).some((b) => b.type === 'image')),
      'the image went as an image',
    );
  });

  test('a one-shot turn reads a resource through read_mcp_resource without asking', T, async () => {
    const r = await runCli(['--workspace', ws, '--plain', '--mcp-config', config, 'read notes notes://readme'], env, '');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[tool\] mcp-agent__read_mcp_resource/);
    assert.match(r.stdout, /tool said: Resource notes:\/\/readme \(text\/markdown\):\n# Notes\nTHE-README-TEXT/);
    assert.doesNotMatch(r.stdout, /Allow\?|\[y\/N/);
  });
});
