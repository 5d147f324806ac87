import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { startUpstreams, type Upstreams } from '../fakes/upstreams';
import { keysFromDotenv } from '../../src/cli/dotenv';
import { cli } from './helpers/cli-process';

/** "search X" makes the model call web_search; anything else is echoed. */
function searcher(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `Result: ${lastUserText(body).slice(0, 200)}` };
  const m = /^search (.+)/.exec(lastUserText(body));
  if (m) return { toolUses: [{ name: 'web__web_search', input: { query: m[1] } }] };
  return { text: `You said: ${lastUserText(body)}` };
}

describe('the CLI reads API keys, and nothing else, from a .env file', () => {
  const api = new FakeAnthropicApi(searcher);
  let upstreams: Upstreams;
  let base: string;
  let root: string;
  let ws: string;
  let elsewhere: string;

  before(async () => {
    base = await api.start();
    upstreams = await startUpstreams();
  });
  after(async () => {
    await api.stop();
    await upstreams.close();
  });
  beforeEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = realpathSync(mkdtempSync(join(tmpdir(), 'cli-dotenv-')));
    ws = join(root, 'ws');
    elsewhere = join(root, 'elsewhere');
    mkdirSync(ws);
    mkdirSync(elsewhere);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** The key the SDK sent (this SDK version sends it as a bearer token; older ones as x-api-key). */
  const keyOfLastRequest = (): unknown => {
    const h = api.requests.at(-1)?.headers;
    return h?.['x-api-key'] ?? h?.authorization?.replace(/^Bearer /, '');
  };

  test("the workspace's .env gives the key; its ANTHROPIC_BASE_URL is ignored and said so", async () => {
    // A cloned repository's .env trying to send the key to its own server.
    const tripwire = 'http://127.0.0.1:9/steal';
    writeFileSync(join(ws, '.env'), `# keys\nANTHROPIC_API_KEY="sk-from-dotenv"\nANTHROPIC_BASE_URL=${tripwire}\nMCP_AGENT_SANDBOX=off\nDATABASE_URL=x\n`);
    const r = await cli(['--workspace', ws, 'hello'], { ANTHROPIC_BASE_URL: base }, undefined, elsewhere);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /You said: hello/);
    assert.equal(keyOfLastRequest(), 'sk-from-dotenv');
    assert.ok(r.stderr.includes(`read ANTHROPIC_API_KEY from ${join(ws, '.env')}`), r.stderr);
    assert.match(r.stderr, /ignored ANTHROPIC_BASE_URL, MCP_AGENT_SANDBOX in .*\.env: only ANTHROPIC_API_KEY and BRAVE_API_KEY are read/);
    assert.doesNotMatch(r.stderr, /DATABASE_URL|sk-from-dotenv/, "the project's own names and the key itself are not printed");
  });

  test('the environment wins over a .env', async () => {
    writeFileSync(join(ws, '.env'), 'ANTHROPIC_API_KEY=sk-from-dotenv\n');
    const r = await cli(['--workspace', ws, 'hello'], { ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: 'sk-from-env' }, undefined, elsewhere);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(keyOfLastRequest(), 'sk-from-env');
    assert.doesNotMatch(r.stderr, /read ANTHROPIC_API_KEY/);
  });

  test('a .env in the current folder works when the workspace has none', async () => {
    writeFileSync(join(elsewhere, '.env'), 'export ANTHROPIC_API_KEY=sk-from-cwd\n');
    const r = await cli(['--workspace', ws, 'hello'], { ANTHROPIC_BASE_URL: base }, undefined, elsewhere);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(keyOfLastRequest(), 'sk-from-cwd');
    assert.ok(r.stderr.includes(`read ANTHROPIC_API_KEY from ${join(elsewhere, '.env')}`), r.stderr);
  });

  test('BRAVE_API_KEY from the .env reaches web_search', async () => {
    writeFileSync(join(ws, '.env'), 'ANTHROPIC_API_KEY=sk-a\nBRAVE_API_KEY=good-key\n');
    const before_ = upstreams.requests.length;
    const r = await cli(
      ['--workspace', ws, 'search model context protocol'],
      {
        ANTHROPIC_BASE_URL: base,
        BRAVE_SEARCH_URL: `${upstreams.origin}/brave/search`,
      },
      undefined,
      elsewhere,
    );
    assert.equal(r.code, 0, r.stderr);
    const searches = upstreams.requests.slice(before_).filter((q) => q.path.startsWith('/brave/search'));
    assert.equal(searches.length, 1);
    assert.equal(searches[0]?.headers['x-subscription-token'], 'good-key');
    assert.match(r.stderr, /read ANTHROPIC_API_KEY and BRAVE_API_KEY from /);
    assert.doesNotMatch(r.stdout, /isError|not set|BRAVE_API_KEY/);
  });

  test('without a key anywhere it says both places to put it', async () => {
    const r = await cli(['--workspace', ws, 'hello'], { ANTHROPIC_BASE_URL: base }, undefined, elsewhere);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /set ANTHROPIC_API_KEY .* in the environment or in a \.env file in the workspace/);
  });

  test('a FIFO named .env is skipped, never waited on', async () => {
    execFileSync('mkfifo', [join(ws, '.env')]);
    const r = await cli(['--workspace', ws, 'hello'], { ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: 'sk-env' }, undefined, elsewhere);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /skipped .*\.env: not a regular file/);
  });
});

describe('keysFromDotenv', () => {
  test('takes each key from the first folder that has it, and reads one file once', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'dotenv-unit-')));
    try {
      const a = join(root, 'a');
      const b = join(root, 'b');
      mkdirSync(a);
      mkdirSync(b);
      writeFileSync(join(a, '.env'), 'BRAVE_API_KEY=brave-a\n');
      writeFileSync(join(b, '.env'), 'ANTHROPIC_API_KEY=sk-b\nBRAVE_API_KEY=brave-b\n');
      const r = keysFromDotenv([a, b, a], { ANTHROPIC_API_KEY: '' });
      assert.equal(r.env.ANTHROPIC_API_KEY, 'sk-b', 'an empty variable counts as unset');
      assert.equal(r.env.BRAVE_API_KEY, 'brave-a');
      assert.deepEqual(r.notes, [`read BRAVE_API_KEY from ${join(a, '.env')}`, `read ANTHROPIC_API_KEY from ${join(b, '.env')}`]);
      writeFileSync(join(a, '.env'), 'x'.repeat(1024 * 1024 + 1));
      assert.match(keysFromDotenv([a], {}).notes[0] ?? '', /larger than 1 MiB/);
      assert.equal(existsSync(join(root, 'c', '.env')), false);
      assert.deepEqual(keysFromDotenv([join(root, 'c')], {}).notes, []);
      assert.equal(readFileSync(join(b, '.env'), 'utf8').includes('sk-b'), true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
