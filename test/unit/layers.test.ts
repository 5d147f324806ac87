import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../support/repo-root';

const checker = join(repoRoot(), 'scripts', 'check-layers.mjs');

function check(root: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [checker, root], { encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'mcp-agent-layers-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

test('the repository follows its own layer rules', () => {
  const r = check(repoRoot());
  assert.equal(r.status, 0, r.output);
});

test('each forbidden import is reported with the file and the rule', (t) => {
  const root = tree({
    'src/core/agent/x.ts': "import * as vscode from 'vscode';\nimport { a } from '../../../servers/lib/results';\n",
    'src/core/mcp/y.ts': "export type { B } from '../../vscode/chat-view';\n",
    'media/chat/z.ts': "import { readFileSync } from 'node:fs';\nimport { c } from '../../src/core/agent/x';\n",
    'src/node/w.ts': "import type { D } from '../core/mcp/y';\n",
    'servers/web/v.ts': "import { Agent } from '../../src/core/agent/x';\n",
    'servers/orchestrator/u.ts': "import { Agent } from '../../src/core/agent/x';\nimport { s } from '../../src/node/w';\n",
    'src/vscode/ok.ts': "import * as vscode from 'vscode';\nimport { Agent } from '../core/agent/x';\n",
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = check(root);
  assert.equal(r.status, 1, r.output);
  const expected = [
    /src\/core\/agent\/x\.ts: imports 'vscode', but the core layer must not depend on the editor/,
    /src\/core\/agent\/x\.ts: imports '..\/..\/..\/servers\/lib\/results': the core layer may use core, node, common, not servers/,
    /src\/core\/mcp\/y\.ts: imports '..\/..\/vscode\/chat-view': the core layer .* not vscode/,
    /media\/chat\/z\.ts: imports 'node:fs', a Node built-in, but the webview layer runs in the browser/,
    /media\/chat\/z\.ts: imports '..\/..\/src\/core\/agent\/x': the webview layer .* not core/,
    /src\/node\/w\.ts: imports '..\/core\/mcp\/y': the node layer may use node, not core/,
    /servers\/web\/v\.ts: imports '..\/..\/src\/core\/agent\/x': the servers layer may use servers, node, not core/,
  ];
  for (const re of expected) assert.match(r.output, re);
  assert.doesNotMatch(r.output, /orchestrator\/u\.ts|src\/vscode\/ok\.ts/);
  assert.match(r.output, /7 import\(s\) break the rules/);
});
