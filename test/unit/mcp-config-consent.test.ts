// What the consent question shows of a workspace's servers (definition-summary.ts, the text the editor's
// modal and the CLI both show): every value taken from the person's environment, home or inputs, as its
// reference and with where it is sent; never the value itself. Real config files in temp folders.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerDefinition } from '../../src/core/mcp/config/definition';
import { consentDetails, launchLine } from '../../src/core/mcp/config/definition-summary';
import { loadConfigFiles } from '../../src/core/mcp/config/load';
import { workspaceConfigSources } from '../../src/core/mcp/config/sources';
import { nth } from '../support/nth';

const TOKEN = 'ghp_the-persons-token';
const env = { GITHUB_TOKEN: TOKEN, SUBDIR: 'tools', TEAM: 'team-secret', HOST: 'h.example' };
const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** The workspace's servers from `.vscode/mcp.json` (and `.mcp.json`), loaded as the hosts load them. */
function load(vscode: unknown, claude?: unknown, files: Record<string, string> = {}): { ws: string; definitions: ServerDefinition[] } {
  const ws = mkdtempSync(join(tmpdir(), 'consent-'));
  roots.push(ws);
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'mcp.json'), JSON.stringify(vscode));
  if (claude) writeFileSync(join(ws, '.mcp.json'), JSON.stringify(claude));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(ws, name), text);
  const loaded = loadConfigFiles(workspaceConfigSources(ws), { workspaceFolder: ws, userHome: '/home/person', env });
  assert.deepEqual(
    loaded.flatMap((f) => f.diagnostics),
    [],
  );
  return { ws, definitions: loaded.flatMap((f) => f.definitions) };
}

/** Everything the question would show of a server. */
const shown = (d: ServerDefinition): string => [launchLine(d), ...consentDetails(d)].join('\n');

describe('the consent question', () => {
  test('a header taken from the environment is shown as its reference and where it goes, not as just its name', () => {
    const { definitions } = load({
      servers: { gh: { type: 'http', url: 'https://host.example/mcp?x=1', headers: { 'X-Client-Version': '${env:GITHUB_TOKEN}', Accept: 'text/plain' } } },
    });
    const d = nth(definitions, 0);
    assert.equal(launchLine(d), 'HTTP https://host.example/mcp?x=1');
    assert.deepEqual(consentDetails(d), [
      'headers: Accept',
      'from your environment and inputs:',
      '  header X-Client-Version = ${env:GITHUB_TOKEN} → https://host.example',
    ]);
    assert.ok(!shown(d).includes(TOKEN));
  });

  test('a stdio server: arguments, environment values and the folder that take from the person, each with where it goes; names only for what the file writes', () => {
    const { ws, definitions } = load(
      {
        inputs: [{ type: 'promptString', id: 'tok', description: 'Token', password: true }],
        servers: {
          tool: {
            command: 'npx',
            args: ['-y', 'pkg', '--token=${input:tok}', '${userHome}/.config/pkg.json'],
            env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}', LEVEL: 'debug', B: 'from the file' },
            envFile: '${workspaceFolder}/.env',
            cwd: '${workspaceFolder}/${env:SUBDIR}',
          },
        },
      },
      undefined,
      { '.env': 'A=1\nB=2\n' },
    );
    const d = nth(definitions, 0);
    assert.equal(launchLine(d), "npx -y pkg '--token=${input:tok}' '${userHome}/.config/pkg.json'");
    assert.deepEqual(consentDetails(d), [
      `in ${ws}/\${env:SUBDIR}`,
      `environment from ${join(ws, '.env')}: A`,
      'environment: B, LEVEL',
      'from your environment and inputs:',
      '  argument 3 = --token=${input:tok} → npx',
      '  argument 4 = ${userHome}/.config/pkg.json → npx',
      '  environment GITHUB_TOKEN = ${env:GITHUB_TOKEN} → npx',
    ]);
    assert.ok(!shown(d).includes(TOKEN) && !shown(d).includes('/home/person'));
  });

  test('a URL that takes from the environment: its origin is where the values go, or the URL as written when the host itself is a reference', () => {
    const { definitions } = load({
      servers: {
        path: { type: 'http', url: 'https://mcp.example.com/${env:TEAM}', headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' } },
        host: { type: 'sse', url: 'https://${env:HOST}/mcp' },
      },
    });
    assert.deepEqual(definitions.map(consentDetails), [
      [
        'from your environment and inputs:',
        '  url = https://mcp.example.com/${env:TEAM} → https://mcp.example.com',
        '  header Authorization = Bearer ${env:GITHUB_TOKEN} → https://mcp.example.com',
      ],
      ['from your environment and inputs:', '  url = https://${env:HOST}/mcp → https://${env:HOST}/mcp'],
    ]);
    assert.equal(launchLine(nth(definitions, 1)), 'SSE https://${env:HOST}/mcp');
    for (const d of definitions) assert.ok(!/team-secret|h\.example|ghp_/.test(shown(d)), shown(d));
  });

  test("Claude's .mcp.json: ${VAR} and ${VAR:-default} are shown as written", () => {
    const { definitions } = load(
      { servers: {} },
      { mcpServers: { c: { type: 'http', url: 'https://c.example/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}', 'X-Region': '${REGION:-eu}' } } } },
    );
    assert.deepEqual(consentDetails(nth(definitions, 0)), [
      'from your environment and inputs:',
      '  header Authorization = Bearer ${GITHUB_TOKEN} → https://c.example',
      '  header X-Region = ${REGION:-eu} → https://c.example',
    ]);
  });

  test("a newline in a workspace's value cannot draw a line of its own in the question", () => {
    const { definitions } = load({ servers: { s: { command: 'x', env: { V: '${env:GITHUB_TOKEN}\n  environment SAFE = nothing → x' } } } });
    const details = consentDetails(nth(definitions, 0));
    assert.equal(details.length, 3, details.join('\n'));
    assert.equal(details[2], '  environment V = ${env:GITHUB_TOKEN}\\n  environment SAFE = nothing → x → x');
  });

  test('a server that takes nothing from the person says only what it did before', () => {
    const { ws, definitions } = load({ servers: { s: { command: 'node', args: ['${workspaceFolder}/srv.js'], env: { API_KEY: 'written-in-the-file' } } } });
    assert.equal(launchLine(nth(definitions, 0)), `node ${ws}/srv.js`);
    assert.deepEqual(consentDetails(nth(definitions, 0)), [`in ${ws}`, 'environment: API_KEY']);
  });
});
