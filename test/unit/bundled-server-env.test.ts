import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { bundledServerConfigs, bundledServerEnv } from '../../src/core/mcp/hub/bundled-servers';
import { repoRoot } from '../support/repo-root';

const HOST = {
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
  GITHUB_TOKEN: 'ghp_secret',
  AWS_SECRET_ACCESS_KEY: 'aws',
  BRAVE_API_KEY: 'brave',
  BRAVE_SEARCH_URL: 'http://127.0.0.1:4',
  ARXIV_API_URL: 'http://127.0.0.1:2',
  MCP_AGENT_FETCH_ALLOW: '127.0.0.1:3',
  MCP_AGENT_HTTP_TOKEN: 'http-secret',
  PYTHONPATH: '/opt/py',
  LANG: 'C.UTF-8',
};

test('each bundled server gets the common settings and only its own keys and upstreams', () => {
  assert.deepEqual(bundledServerEnv('workspace', HOST), { MCP_AGENT_FETCH_ALLOW: '127.0.0.1:3', PYTHONPATH: '/opt/py', LANG: 'C.UTF-8' });
  assert.deepEqual(bundledServerEnv('web', HOST), {
    BRAVE_API_KEY: 'brave',
    BRAVE_SEARCH_URL: 'http://127.0.0.1:4',
    MCP_AGENT_FETCH_ALLOW: '127.0.0.1:3',
    LANG: 'C.UTF-8',
  });
  assert.deepEqual(bundledServerEnv('research', HOST), { ARXIV_API_URL: 'http://127.0.0.1:2', MCP_AGENT_FETCH_ALLOW: '127.0.0.1:3', LANG: 'C.UTF-8' });
});

test('the orchestrator alone gets the Anthropic key and CLAUDE_* settings, plus what the servers it starts need', () => {
  assert.deepEqual(bundledServerEnv('orchestrator', { ...HOST, CLAUDE_MODEL: 'm', CLAUDE_SESSION_TIMEOUT: '60' }), {
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
    BRAVE_API_KEY: 'brave',
    BRAVE_SEARCH_URL: 'http://127.0.0.1:4',
    ARXIV_API_URL: 'http://127.0.0.1:2',
    MCP_AGENT_FETCH_ALLOW: '127.0.0.1:3',
    PYTHONPATH: '/opt/py',
    LANG: 'C.UTF-8',
    CLAUDE_MODEL: 'm',
    CLAUDE_SESSION_TIMEOUT: '60',
  });
  for (const name of ['workspace', 'web', 'research'] as const) {
    assert.equal(bundledServerEnv(name, { CLAUDE_MODEL: 'm' }).CLAUDE_MODEL, undefined, name);
  }
});

test('the Anthropic key, other tokens and the HTTP bearer token reach none of them', () => {
  for (const name of ['workspace', 'web', 'research'] as const) {
    const env = bundledServerEnv(name, HOST);
    for (const key of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'MCP_AGENT_HTTP_TOKEN']) {
      assert.equal(env[key], undefined, `${name} got ${key}`);
    }
  }
});

test('each bundled server keeps its compiled code in the person’s MCP Agent folder; their own NODE_COMPILE_CACHE wins', () => {
  const dist = join(repoRoot(), 'dist');
  const cacheOf = (env: NodeJS.ProcessEnv): Array<string | undefined> => bundledServerConfigs(dist, '/w', env).map((c) => c.env?.NODE_COMPILE_CACHE);
  assert.deepEqual(cacheOf({ MCP_AGENT_HOME: '/home/p/.agent' }), Array(4).fill(join('/home/p/.agent', 'compile-cache')));
  assert.deepEqual(cacheOf({ MCP_AGENT_HOME: '/home/p/.agent', NODE_COMPILE_CACHE: '/cache/mine' }), Array(4).fill('/cache/mine'));
});
