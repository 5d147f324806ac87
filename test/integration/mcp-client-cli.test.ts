// The client half on the terminal: dist/cli.js as a real process with server-everything from --mcp-config
// and the fake Anthropic API. Sampling is asked y/N/always (--yes approves it), elicitation forms field by
// field (--yes accepts only a form whose required fields all have defaults), slash commands never reach the model.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, systemText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { ownStderr, runCli } from './helpers/cli-process';
import { fake } from './mcp-support';
import { outsideServer } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(90_000) };
const EVERYTHING = outsideServer('server-everything');

/** The model: calls the tool a message names, then says what came back; answers a server's sampling request itself. */
function model(body: MessagesBody): Reply {
  if (systemText(body).includes('helpful test server')) return { text: 'SAMPLED-REPLY' };
  // Tests that match these words run the CLI with --plain: rendered as Markdown, the JSON's \" would read as ".
  if (isToolResultTurn(body)) return { text: `tool said: ${JSON.stringify(body.messages.at(-1)?.content).slice(0, 3000)}` };
  const text = lastUserText(body);
  const call = /call (\S+)/.exec(text)?.[1];
  if (call)
    return {
      toolUses: [
        {
          name: call,
          input: /sampling-request(-async)?$/.test(call) ? { prompt: 'tell me a joke', maxTokens: 60 } : call.endsWith('elicit') ? elicitArgs(text) : {},
        },
      ],
    };
  return { text: `echo: ${text}` };
}

/** `call probe__elicit schema {...}` asks a form; `call probe__elicit url <url>` asks to open a page. */
function elicitArgs(text: string): Record<string, unknown> {
  const url = /\burl (\S+)/.exec(text)?.[1];
  return url ? { mode: 'url', url } : { schema: JSON.parse(/schema (.*)$/.exec(text)?.[1] ?? '{}') };
}

describe('the CLI as an MCP client', () => {
  const api = new FakeAnthropicApi(model);
  let env: Record<string, string>;
  let ws: string;
  let config: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-client-'));
    config = join(ws, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
          probe: { command: process.execPath, args: [fake('mcp-client-probe')] },
        },
      }),
    );
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('sampling is shown (server, messages, system prompt, limit) and asked; "n" answers the spec\'s rejection', T, async () => {
    const r = await runCli(['--workspace', ws, '--mcp-config', config, 'call everything__trigger-sampling-request'], env, 'y\nn\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Server everything asks the model for a reply \(sampling\):/);
    assert.match(r.stdout, /system prompt: You are a helpful test server\./);
    assert.match(r.stdout, /user: Resource trigger-sampling-request context: tell me a joke/);
    assert.match(r.stdout, /up to 60 tokens on /);
    assert.match(r.stdout, /User rejected sampling request/);
    assert.doesNotMatch(r.stdout, /SAMPLED-REPLY/);
  });

  test('--yes approves sampling; the reply comes from the API and its tokens are reported', T, async () => {
    const r = await runCli(['--workspace', ws, '--yes', '--mcp-config', config, 'call everything__trigger-sampling-request'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(approved by --yes\)\n {2}\(--yes lets this server sample up to 100,000 tokens this run; past that its requests are denied\)/);
    assert.match(r.stdout, /SAMPLED-REPLY/);
    assert.match(ownStderr(r.stderr), /mcp-agent: sampling for everything on \S+: .* out/);
  });

  test('sampling a server asks as a task is shown and asked the same way; the reply reaches the server through tasks/result', T, async () => {
    const r = await runCli(['--workspace', ws, '--plain', '--mcp-config', config, 'call everything__trigger-sampling-request-async'], env, 'y\ny\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Server everything asks the model for a reply \(sampling\):/);
    assert.match(r.stdout, /system prompt: You are a helpful test server\./);
    assert.match(r.stdout, /user: Resource trigger-sampling-request-async context: tell me a joke/);
    assert.match(r.stdout, /\[COMPLETED\] Async sampling completed!/);
    assert.match(r.stdout, /SAMPLED-REPLY/);
  });

  test('an elicitation form a server asks as a task is asked field by field like any other; a decline reaches the server', T, async () => {
    // y (tool call), n (fill in): declined.
    const r = await runCli(['--workspace', ws, '--plain', '--mcp-config', config, 'call everything__trigger-elicitation-request-async'], env, 'y\nn\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Server everything asks: Please provide inputs for the following fields \(async task demo\):/);
    assert.match(r.stdout, /\[DECLINED\] User declined/);
  });

  test('an elicitation form is asked field by field; Enter keeps defaults; the server gets them', T, async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
        color: {
          type: 'string',
          oneOf: [
            { const: 'r', title: 'Red' },
            { const: 'g', title: 'Green' },
          ],
        },
        pets: { type: 'array', items: { type: 'string', enum: ['cat', 'dog', 'fish'] } },
        ok: { type: 'boolean', default: true },
      },
      required: ['name'],
    });
    // y (tool call), y (fill in), name, age (bad, then empty for the default), color by number, pets, ok (empty)
    const input = ['y', 'y', 'Ada', 'old', '', '2', '1,3', ''].join('\n');
    const r = await runCli(['--workspace', ws, '--plain', '--mcp-config', config, `call probe__elicit schema ${schema}`], env, `${input}\n`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Server probe asks: Fill this in/);
    assert.match(r.stdout, /\(expected a number\)/);
    assert.match(
      r.stdout,
      /\\"action\\":\\"accept\\",\\"content\\":\{\\"name\\":\\"Ada\\",\\"age\\":30,\\"color\\":\\"g\\",\\"pets\\":\[\\"cat\\",\\"fish\\"\],\\"ok\\":true\}/,
    );
  });

  test('--yes accepts a form only when every required field has a default, and declines the rest', T, async () => {
    const withDefaults = JSON.stringify({ type: 'object', properties: { n: { type: 'number', default: 2 }, s: { type: 'string' } }, required: ['n'] });
    const a = await runCli(['--workspace', ws, '--plain', '--yes', '--mcp-config', config, `call probe__elicit schema ${withDefaults}`], env);
    assert.match(a.stdout, /accepted with its defaults by --yes/);
    assert.match(a.stdout, /\\"action\\":\\"accept\\",\\"content\\":\{\\"n\\":2\}/);
    const without = JSON.stringify({ type: 'object', properties: { s: { type: 'string', title: 'Secret' } }, required: ['s'] });
    const d = await runCli(['--workspace', ws, '--plain', '--yes', '--mcp-config', config, `call probe__elicit schema ${without}`], env);
    assert.match(d.stdout, /declined by --yes: Secret has no default/);
    assert.match(d.stdout, /\\"action\\":\\"decline\\"/);
  });

  test('a form that asks for what looks like a secret is shown with a warning not to type one', T, async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { user: { type: 'string', title: 'User' }, pw: { type: 'string', title: 'Password' } },
      required: ['pw'],
    });
    const r = await runCli(['--workspace', ws, '--yes', '--mcp-config', config, `call probe__elicit schema ${schema}`], env);
    assert.match(
      r.stdout,
      /! WARNING: this form asks for what looks like a secret \(Password\)\.\n {2}! MCP servers must not ask for passwords, keys, codes or card numbers in a form: do not type one here\./,
    );
    assert.match(r.stdout, /· Password \(required\), text \[looks like a secret\]/);
    assert.doesNotMatch(r.stdout, /· User, text \[looks like a secret\]/);
  });

  test('a page to open is shown with its site (the registrable domain) first, and an international name with a warning', T, async () => {
    const r = await runCli(['--workspace', ws, '--yes', '--mcp-config', config, 'call probe__elicit url https://login.example.com.evil.io/signin'], env);
    assert.match(
      r.stdout,
      /asks you to open a page: Open this to sign in\n {2}site: evil\.io \(host login\.example\.com\.evil\.io\)\n {2}https:\/\/login\.example\.com\.evil\.io\/signin\n/,
    );
    const idn = await runCli(['--workspace', ws, '--yes', '--mcp-config', config, 'call probe__elicit url https://аpple.com/'], env);
    assert.match(idn.stdout, /site: xn--pple-43d\.com\n {2}! WARNING: the site's name has letters outside a-z; written out it reads "аpple\.com"/);
    assert.match(idn.stdout, /\(declined: --yes never opens a page\)/);
  });

  test('slash commands run in the REPL and none reaches the model', T, async () => {
    const toModel = (): number => api.requests.filter((q) => !systemText(q.body).includes('helpful')).length;
    const before = toModel();
    const input = ['/help', '/tools', '/prompts', '/resources', '/resource probe probe://counter', '/nonsense', '/model', 'exit'].join('\n');
    const r = await runCli(['--workspace', ws, '--mcp-config', config], env, `${input}\n`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\/resource <server> <uri>/);
    assert.match(r.stdout, /everything__trigger-sampling-request/);
    assert.match(r.stdout, /\/prompt everything\/completable-prompt department=… name=…/);
    assert.match(r.stdout, /probe probe:\/\/counter/);
    assert.match(r.stdout, /unknown command \/nonsense/);
    assert.match(r.stdout, /model: /);
    assert.equal(toModel(), before, 'no command was sent to the model');
  });

  test('/prompt sends the prompt to the model; its arguments are asked when none are given; /clear starts a new chat', T, async () => {
    // No answer for the required city: nothing is sent. Then the city, Enter for the optional state, "y" to the review.
    const input = ['/prompt everything/args-prompt', '', '/prompt everything/args-prompt', 'Paris', '', 'y', '/clear', 'exit'].join('\n');
    const r = await runCli(['--workspace', ws, '--mcp-config', config], env, `${input}\n`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /city \(Name of the city\): /);
    assert.match(r.stdout, /\[prompt everything\/args-prompt not sent: city is required\]/);
    assert.match(r.stdout, /state \[optional, Enter to leave out\]: /);
    assert.match(r.stdout, /echo: .*Paris/);
    assert.match(r.stdout, /\[new conversation\]/);
  });
});
