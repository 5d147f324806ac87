// The build points the SDKs' own imports of Ajv at modules that load it on first use (scripts/esbuild-plugins.mjs).
// A release that renames the import would slip past such a redirect and quietly put Ajv back at start: the build
// must fail instead. Here a package laid out as the v2 client is built once keeping its `_shims` import and once
// without it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../support/repo-root';

/** Builds an entry that loads a stand-in for the v2 client's dist/index.mjs with `body`, through lazyClientAjv. */
function buildWithClientIndex(body: string): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-redirects-'));
  try {
    const pkg = join(dir, 'node_modules', '@modelcontextprotocol', 'client', 'dist');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'index.mjs'), body);
    writeFileSync(join(dir, 'entry.mjs'), "import './node_modules/@modelcontextprotocol/client/dist/index.mjs';\n");
    const root = repoRoot();
    const driver = `
      import { createRequire } from 'node:module';
      const esbuild = createRequire(${JSON.stringify(join(root, 'package.json'))})('esbuild');
      const { lazyClientAjv } = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts', 'esbuild-plugins.mjs')).href)});
      const result = await esbuild.build({
        entryPoints: [${JSON.stringify(join(dir, 'entry.mjs'))}], bundle: true, write: false, packages: 'external',
        platform: 'node', format: 'cjs', logLevel: 'silent', plugins: [lazyClientAjv],
      }).catch((err) => ({ errors: err.errors }));
      console.log(result.errors.map((e) => e.text).join('\\n'));
      process.exit(result.errors.length > 0 ? 1 : 0);
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', driver], { encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the build goes through while the v2 client imports its `_shims`, which the redirect takes', () => {
  const r = buildWithClientIndex(
    "import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/_shims';\nexport const v = DefaultJsonSchemaValidator;\n",
  );
  assert.equal(r.status, 0, r.out);
});

test('the build fails, naming the redirect, once the v2 client no longer imports `_shims` as it expects', () => {
  const r = buildWithClientIndex("export const v = 'renamed';\n");
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /lazy-client-ajv: @modelcontextprotocol\/client no longer imports its `_shims`.*update it/);
});
