/**
 * The client under test for the official MCP conformance suite (`conformance client --command ...`): the suite
 * starts a scenario's server and runs `node out/test/fakes/conformance-client.js <server-url>`. This adapter runs
 * the real CLI (`node dist/cli.js --yes --mcp-config <file>`) with that URL as an `http` server named
 * `conformance`, so the suite exercises exactly what a person's CLI run does: the config loader, the hub, the
 * HTTP transport, the OAuth sign-in ($BROWSER), the --yes elicitation and sampling answers. The model is a local
 * fake Anthropic API that calls every tool the scenario's server offers once, then finishes.
 *
 * The CLI is the client here rather than McpConnection alone because the scenarios are about what our product
 * sends (initialize, the tool call, answers to elicitation, reconnects, OAuth), and the CLI is the
 * smallest real front end over it.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oauthKey } from '../../src/core/mcp/oauth/oauth-key';
import { FakeAnthropicApi, isToolResultTurn, type MessagesBody, type Reply } from './anthropic-api';
import { repoRoot } from '../support/repo-root';

const SERVER = 'conformance';

/**
 * The suite's json-schema-2020-12-preservation server offers a tool that echoes back a schema: the model passes
 * it the focal tool's input schema exactly as the host showed it to the model, so what the suite checks is what
 * survived the whole way (server, hub, the Messages API request), not what the SDK parsed.
 */
const ECHO_TOOL = 'json_schema_echo';
const FOCAL_TOOL = 'json_schema_2020_12_tool';

/** First turn: every tool of the scenario's server at once; after their results: done. */
function callEveryTool(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: 'Called every tool the server offers.' };
  const tools = (body.tools ?? []).filter((t) => t.name.startsWith(`${SERVER}__`));
  if (tools.length === 0) return { text: `The ${SERVER} server offered no tools.` };
  const focal = tools.find((t) => t.name.endsWith(FOCAL_TOOL));
  return {
    toolUses: tools.map((t) => ({
      name: t.name,
      input: t.name.endsWith(ECHO_TOOL) && focal ? { schema: focal.input_schema } : sampleArguments(t.input_schema),
    })),
  };
}

/**
 * Plausible arguments for an input schema: its required properties (e.g. add_numbers's `a` and `b`), and its
 * optional text ones too, with a non-ASCII character as people's text often has (the 2026-07-28 http-custom-headers
 * scenario checks such a value is base64-encoded in its Mcp-Param header; optional non-text properties stay
 * unset, which the scenario's null-handling tool checks).
 */
function sampleArguments(schema: unknown): Record<string, unknown> {
  const s = schema as { properties?: Record<string, { type?: string }>; required?: string[] } | undefined;
  const args: Record<string, unknown> = {};
  for (const name of s?.required ?? []) {
    const type = s?.properties?.[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? 2 : type === 'boolean' ? true : type === 'string' ? 'conformance' : {};
  }
  for (const [name, property] of Object.entries(s?.properties ?? {})) {
    if (!(name in args) && property.type === 'string') args[name] = 'conformance ✓';
  }
  return args;
}

/**
 * `$BROWSER` for the CLI's OAuth: the stand-in browser (oauth-browser.ts) follows the authorization URL's redirects,
 * as a person clicking Allow would, back to the CLI's loopback listener. The CLI runs $BROWSER without a shell, so
 * this is a small executable script.
 */
function fakeBrowser(dir: string): string {
  const file = join(dir, 'browser.sh');
  const stand = join(repoRoot(), 'out', 'test', 'fakes', 'oauth-browser.js');
  writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(stand)} "$1"\n`);
  chmodSync(file, 0o755);
  return file;
}

/**
 * The CLI's sign-in file (MCP_AGENT_HOME/oauth.json), in a temp folder, never the person's own. A scenario with a
 * pre-registered client (MCP_CONFORMANCE_CONTEXT: client_id, client_secret) finds it there, as a person's
 * earlier registration would be.
 */
function oauthHome(dir: string, url: string): string {
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}') as { client_id?: string; client_secret?: string };
  if (context.client_id) {
    const client = { client_id: context.client_id, client_secret: context.client_secret };
    writeFileSync(join(home, 'oauth.json'), JSON.stringify({ version: 1, servers: { [oauthKey(url)]: { client } } }), { mode: 0o600 });
  }
  return home;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    // stdout and stderr pass through: the suite saves them beside the scenario's checks.
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  if (!url?.startsWith('http')) {
    process.stderr.write('usage: conformance-client <server-url>\n');
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'conformance-client-'));
  const api = new FakeAnthropicApi(callEveryTool);
  try {
    const workspace = join(dir, 'workspace');
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER]: { type: 'http', url } } }));
    mkdirSync(workspace);
    const env = {
      ...process.env,
      ANTHROPIC_API_KEY: 'sk-conformance',
      ANTHROPIC_BASE_URL: await api.start(),
      BROWSER: fakeBrowser(dir),
      MCP_AGENT_HOME: oauthHome(dir, url),
    };
    const cli = join(repoRoot(), 'dist', 'cli.js');
    // The echoed schema names https://json-schema.org/draft/2020-12/schema (an identifier, not a place to send
    // anything); the egress guard would rightly refuse a URL the person never named, so this run names it.
    const allow = ['--allow-host', 'json-schema.org'];
    return await run(process.execPath, [cli, '--workspace', workspace, '--yes', ...allow, '--mcp-config', config, 'Call every conformance tool.'], env);
  } finally {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`conformance-client: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
