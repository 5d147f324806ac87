import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledServerEnv } from '../../src/core/mcp/bundled-servers';

test('the bundled servers get their own settings and keys, never the Anthropic key or other tokens', () => {
  const env = bundledServerEnv({
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
    GITHUB_TOKEN: 'ghp_secret',
    AWS_SECRET_ACCESS_KEY: 'aws',
    BRAVE_API_KEY: 'brave',
    ARXIV_API_URL: 'http://127.0.0.1:2',
    MCP_AGENT_FETCH_ALLOW: '127.0.0.1:3',
    LANG: 'C.UTF-8',
  });
  assert.deepEqual(env, {
    BRAVE_API_KEY: 'brave',
    ARXIV_API_URL: 'http://127.0.0.1:2',
    MCP_AGENT_FETCH_ALLOW: '127.0.0.1:3',
    LANG: 'C.UTF-8',
  });
});
