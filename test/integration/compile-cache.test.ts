// A bundled server started as the host starts it keeps its compiled code for the next start where the host says
// (NODE_COMPILE_CACHE, bundled-servers.ts), under the person's MCP Agent folder. Node 20 ignores the variable, so
// this runs the server on the Node 22 the conformance step uses (linux-x64 only).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpConnection } from '../../src/core/mcp/session/connection';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { repoRoot } from '../support/repo-root';
import { scaled } from '../support/until';

const T = { timeout: scaled(240_000) };
const home = mkdtempSync(join(tmpdir(), 'compile-cache-home-'));
const workspace = mkdtempSync(join(tmpdir(), 'compile-cache-ws-'));
after(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

/** Node 22 from the npm registry, installed into its cache folder first when missing (scripts/node22.mjs). */
function node22(): string {
  const script = "import { ensureNode22 } from './scripts/node22.mjs'; console.log(ensureNode22());";
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot(), encoding: 'utf8' });
  assert.equal(r.status, 0, `installing Node 22 failed: ${r.stderr}`);
  return r.stdout.trim().split('\n').pop() ?? '';
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

async function listTools(command: string): Promise<string[]> {
  const [config] = bundledServerConfigs(join(repoRoot(), 'dist'), workspace, { MCP_AGENT_HOME: home }).filter((c) => c.name === 'workspace');
  if (!config) throw new Error('no bundled workspace server config');
  const conn = new McpConnection({ ...config, command }, { closeGraceMs: 200 });
  try {
    await conn.start();
    return conn.tools.map((t) => t.name).sort();
  } finally {
    await conn.close();
  }
}

test('a bundled server on Node 22 fills the compile cache under the MCP Agent folder, and starts from it again', T, async (t) => {
  if (process.platform !== 'linux' || process.arch !== 'x64') return t.skip('the Node 22 binary the tests fetch is linux-x64 only');
  const node = node22();
  const cache = join(home, 'compile-cache');
  assert.deepEqual(filesUnder(cache), [], 'the cache starts empty');
  const first = await listTools(node);
  assert.ok(first.includes('read_file'), first.join(', '));
  assert.ok(filesUnder(cache).length > 0, `nothing was written under ${cache}`);
  assert.deepEqual(await listTools(node), first);
});
