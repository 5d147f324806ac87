// Each bundled server, started the way the CLI and the extension start them, holds only its own keys: the
// workspace server (whose run_code runs code the model wrote) never has the Brave key or the Anthropic key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { repoRoot, textOf } from './mcp-support';

test("the workspace server's own environment holds neither the Brave nor the Anthropic key", async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'mcp-secrets-'));
  const source = {
    ...process.env,
    ANTHROPIC_API_KEY: 'sk-ant-host-secret',
    BRAVE_API_KEY: 'brave-host-secret',
    // Without the sandbox the code can read its parent's environment: exactly what must hold nothing.
    MCP_AGENT_SANDBOX: 'off',
  };
  const configs = bundledServerConfigs(join(repoRoot(), 'dist'), workspace, source).filter((c) => c.name === 'workspace' || c.name === 'web');
  const hub = new McpHub(configs, { connection: { roots: [workspace] } });
  t.after(async () => {
    await hub.dispose();
    rmSync(workspace, { recursive: true, force: true });
  });
  hub.start();
  await hub.settled();
  const code = "import os\nprint(open('/proc/%d/environ' % os.getppid(), 'rb').read().replace(b'\\0', b'\\n').decode())";
  const r = await hub.callTool('workspace__run_code', { code });
  const serverEnv = textOf(r);
  assert.ok(!r.isError, serverEnv);
  assert.match(serverEnv, /ELECTRON_RUN_AS_NODE=1/, 'this is the server process environment');
  assert.doesNotMatch(serverEnv, /brave-host-secret|sk-ant-host-secret/);
  assert.equal(configs.find((c) => c.name === 'web')?.env?.BRAVE_API_KEY, 'brave-host-secret', 'the web server does get its key');
});
