import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configFromEnv } from '../../servers/orchestrator/config';

const askMs = (value?: string): number => configFromEnv(value === undefined ? {} : { MCP_AGENT_ORCHESTRATOR_ASK_SECONDS: value }, '/tmp').askTimeoutMs;

test('a person has 10 minutes to answer unless MCP_AGENT_ORCHESTRATOR_ASK_SECONDS says otherwise, at most the 15 a signed state lasts', () => {
  assert.equal(askMs(), 600_000);
  assert.equal(askMs('1'), 1000);
  assert.equal(askMs('0.5'), 500);
  assert.equal(askMs('100000'), 900_000);
  for (const bad of ['', 'soon', '0', '-5']) assert.equal(askMs(bad), 600_000, bad);
});
