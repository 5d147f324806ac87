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
  for (const entry of [
    'package.json',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    '.vscodeignore',
    'esbuild.mjs',
    'tsconfig.json',
    'tsconfig.base.json',
    'src',
    'servers',
    'media',
    'docs',
    'scripts',
    'test',
  ]) {
    cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  const r = spawnSync('npm', ['run', 'package'], { cwd: copy, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm run package failed:\n${r.stdout}\n${r.stderr}`);
  return join(copy, 'mcp-agent.vsix');
}

/** One file of the VSIX (a zip), read with Python's zipfile: python3 is on every machine the tests run on. */
function entry(vsix: string, name: string): string {
  const r = spawnSync('python3', ['-c', 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())', vsix, name], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
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

  test('carries a listing: icon, banner, keywords, the user-facing details page and the changelog, under 5 MB', () => {
    assert.ok(statSync(vsix).size < 5 * 1024 * 1024);
    const manifest = entry(vsix, 'extension.vsixmanifest');
    assert.match(manifest, /<Icon>extension\/media\/marketplace\/icon\.png<\/Icon>/);
    assert.match(manifest, /Microsoft\.VisualStudio\.Services\.Content\.Changelog/);
    assert.match(manifest, /<Tags>[^<]*model context protocol/);
    assert.match(manifest, /Microsoft\.VisualStudio\.Services\.Branding\.Color" Value="#2d2566"/);
    const details = entry(vsix, 'extension/readme.md');
    assert.match(details, /^# MCP Agent/);
    assert.ok(details.length < 20_000, 'the details page is for users, not the developer README');
    assert.doesNotMatch(manifest + details, /example\.invalid/);
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
