// The packaged VSIX, installed into a clean VS Code, works on its own: no sources, no node_modules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';
import { startVscode, type Vscode } from '../vscode/harness';

/** Packages a copy of the checkout, so the production build never replaces the dev build other tests use. */
function packageVsix(): string {
  const root = repoRoot();
  const copy = mkdtempSync(join(tmpdir(), 'mcp-agent-vsix-'));
  for (const entry of ['package.json', 'README.md', 'LICENSE', '.vscodeignore', 'esbuild.mjs', 'tsconfig.json', 'src', 'servers', 'media', 'test']) {
    cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  const r = spawnSync('npm', ['run', 'package'], { cwd: copy, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm run package failed:\n${r.stdout}\n${r.stderr}`);
  return join(copy, 'mcp-agent.vsix');
}

describe('the packaged VSIX', () => {
  let vs: Vscode;
  let vsix: string;

  before(async () => {
    vsix = packageVsix();
    vs = await startVscode({ name: 'vsix', files: { 'a.txt': 'a\n' }, extension: { vsix }, env: { ANTHROPIC_API_KEY: '' } });
  });

  after(async () => {
    await vs?.close();
    if (vsix) rmSync(join(vsix, '..'), { recursive: true, force: true });
  });

  test('installs, opens the chat and starts the bundled servers', async (t) => {
    t.diagnostic(`VSIX size: ${(statSync(vsix).size / 1024 / 1024).toFixed(2)} MB`);
    const chat = await vs.openChat();
    await chat.locator('.cta-set-key').waitFor();
    await vs.waitForTreeItem('Tools', /workspace\s*ready/);
    // All three bundled servers ready, as the status bar counts them.
    await vs.page.locator('.part.statusbar .statusbar-item', { hasText: 'MCP 4/4' }).first().waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('installed')}`);
  });
});
