// What the extension's bundle leaves to dist/lazy/ (LAZY_MODULES in scripts/esbuild-plugins.mjs) is really left out:
// the dev build names every module it holds in a comment, so a redirect that stops matching (a new SDK release
// renaming its shim, say) shows here rather than as a bundle that quietly grew.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repoRoot } from '../support/repo-root';

const LEFT_OUT: Array<[string, RegExp]> = [
  ['the v2 client’s Ajv', /^\/\/ node_modules\/@modelcontextprotocol\/client\/dist\/ajvProvider-/m],
  ['Ajv', /^\/\/ node_modules\/ajv\//m],
  ['the Anthropic SDK', /^\/\/ node_modules\/@anthropic-ai\/sdk\//m],
  ['tldts', /^\/\/ node_modules\/tldts/m],
  ['sql.js', /^\/\/ node_modules\/sql\.js\//m],
  ['ext-apps', /^\/\/ node_modules\/@modelcontextprotocol\/ext-apps\//m],
];

test('the extension bundle holds none of what loads on first use, and each is in dist/lazy/', () => {
  const bundle = readFileSync(join(repoRoot(), 'dist', 'extension.js'), 'utf8');
  assert.match(bundle, /^\/\/ node_modules\/@modelcontextprotocol\/client\/dist\/index\.mjs$/m, 'the dev build names its modules');
  for (const [what, marker] of LEFT_OUT) assert.doesNotMatch(bundle, marker, `${what} is in dist/extension.js`);
  for (const file of ['client-ajv.js', 'model-sdk.js', 'tldts.js', 'sql.js', 'app-bridge.js']) {
    assert.ok(readFileSync(join(repoRoot(), 'dist', 'lazy', file)).length > 1000, `dist/lazy/${file}`);
    assert.match(bundle, new RegExp(`require\\("\\./lazy/${file.replace('.', '\\.')}"\\)`), `the bundle loads dist/lazy/${file}`);
  }
});
