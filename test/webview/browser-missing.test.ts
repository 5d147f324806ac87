// A machine without the browser: every browser test fails within seconds, naming the fix, and nothing it
// opened keeps the test process alive (it once hung `npm test` forever on a fresh machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startHarness } from '../fakes/webview-harness';
import { startVscode } from '../vscode/harness';
import { repoRoot } from '../support/repo-root';

/** Runs one built browser test file with the given browser; resolves with its exit and output, or kills it. */
function runTestFile(file: string, chromium: string, limitMs: number): Promise<{ code: number | null; hung: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      // Without NODE_TEST_CONTEXT the child runs as a test runner of its own, not as a nested file.
      env: { ...withoutTestContext(process.env), MCP_AGENT_CHROMIUM: chromium },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    let hung = false;
    // Only a hang reaches this: a failing launch ends the file in a few seconds.
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, hung, output });
    });
  });
}

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _ignored, ...rest } = env;
  return rest;
}

function withBrowser<T>(path: string, run: () => Promise<T>): Promise<T> {
  const before = process.env.MCP_AGENT_CHROMIUM;
  process.env.MCP_AGENT_CHROMIUM = path;
  return run().finally(() => {
    if (before === undefined) delete process.env.MCP_AGENT_CHROMIUM;
    else process.env.MCP_AGENT_CHROMIUM = before;
  });
}

test('the webview harness refuses a missing browser at once, naming the fix', async () => {
  await withBrowser('/nonexistent/chromium', async () => {
    await assert.rejects(startHarness(), (err: Error) => {
      assert.match(err.message, /no(ne)? .*at MCP_AGENT_CHROMIUM=\/nonexistent\/chromium/);
      assert.match(err.message, /apt-get install -y chromium|ensure-vscode/);
      return true;
    });
  });
});

test('the real-VS-Code harness refuses a missing browser before starting code-server', async () => {
  await withBrowser('/nonexistent/chromium', async () => {
    await assert.rejects(startVscode({ name: 'no browser' }), /MCP_AGENT_CHROMIUM=\/nonexistent\/chromium/);
  });
});

// A missing browser, and one that is there but fails to launch (after the harness started its HTTP server).
test('a whole webview test file without a working browser fails and exits instead of hanging', async () => {
  const file = join(repoRoot(), 'out', 'test', 'webview', 'webview-chat.test.js');
  for (const browser of ['/nonexistent/chromium', '/bin/false']) {
    const r = await runTestFile(file, browser, 60_000);
    assert.equal(r.hung, false, `the test process with MCP_AGENT_CHROMIUM=${browser} was still running after 60 s:\n${r.output.slice(-2000)}`);
    assert.notEqual(r.code, 0, r.output.slice(-2000));
  }
});
