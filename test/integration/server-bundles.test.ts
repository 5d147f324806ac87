// How a bundled server loads its 2026-07-28 side (dist/servers/modern-era.js), checked on the build: each of the two
// costs it once had was found in a CPU profile of a new-era start (bench/README.md, the eras section).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repoRoot } from '../support/repo-root';

const servers = join(repoRoot(), 'dist', 'servers');

/**
 * `node -e script` with zod handed over first, as a server does before it requires modern-era.js
 * (servers/lib/modern-era-loader.ts): the era's bundle carries no zod of its own.
 */
function runWithZod(script: string): string {
  const handOver = `globalThis[Symbol.for('mcp-agent.modern-era.zod')] = require('zod');`;
  return execFileSync(process.execPath, ['-e', handOver + script], { encoding: 'utf8', cwd: repoRoot() });
}

test('each server requires modern-era.js: an import() of a CommonJS file first scans all of it for export names', () => {
  const bundles = readdirSync(servers).filter(
    (f) => f.endsWith('.js') && f !== 'modern-era.js' && readFileSync(join(servers, f), 'utf8').includes('modern-era.js'),
  );
  assert.deepEqual(bundles.sort(), ['orchestrator.js', 'research.js', 'web.js', 'workspace.js']);
  for (const file of bundles) {
    const source = readFileSync(join(servers, file), 'utf8');
    assert.match(source, /require\("\.\/modern-era\.js"\)/, file);
    assert.doesNotMatch(source, /import\("\.\/modern-era\.js"\)/, file);
  }
});

test('loading modern-era.js does not load Node’s fetch; only the --http adapter does', () => {
  // process.moduleLoadList names Node's own modules as they load: undici is what the global Headers brings.
  const script = `
    const era = require(${JSON.stringify(join(servers, 'modern-era.js'))});
    const undici = () => process.moduleLoadList.some((m) => m.includes('undici'));
    const before = undici();
    era.nodeAdapter().then(() => console.log(JSON.stringify({ before, after: undici() })));`;
  const seen = JSON.parse(runWithZod(script)) as { before: boolean; after: boolean };
  assert.deepEqual(seen, { before: false, after: true });
});

test('modern-era.js holds no Ajv: the v2 server package’s validator loads from server-ajv.js when first asked for', () => {
  const era = readFileSync(join(servers, 'modern-era.js'), 'utf8');
  assert.match(era, /^\/\/ node_modules\/@modelcontextprotocol\/server\/dist\/index\.mjs$/m, 'the dev build names its modules');
  assert.doesNotMatch(era, /^\/\/ node_modules\/@modelcontextprotocol\/server\/dist\/ajvProvider-/m);
  assert.doesNotMatch(era, /^\/\/ node_modules\/ajv\//m);
  assert.match(era, /require\("\.\/server-ajv\.js"\)/);
  // Loading the era loads no validator; the validator's bundle, loaded alone, validates with formats.
  const script = `
    require(${JSON.stringify(join(servers, 'modern-era.js'))});
    const loaded = () => Object.keys(require.cache).some((f) => f.endsWith('server-ajv.js'));
    const before = loaded();
    const { AjvJsonSchemaValidator } = require(${JSON.stringify(join(servers, 'server-ajv.js'))});
    const check = new AjvJsonSchemaValidator().getValidator({ type: 'object', properties: { e: { type: 'string', format: 'email' } } });
    console.log(JSON.stringify({ before, after: loaded(), good: check({ e: 'a@example.com' }).valid, bad: check({ e: 'nope' }).valid }));`;
  const seen = JSON.parse(runWithZod(script)) as Record<string, boolean>;
  assert.deepEqual(seen, { before: false, after: true, good: true, bad: false });
});

test('modern-era.js holds no zod: it takes the server’s, and without it fails loudly', () => {
  const era = readFileSync(join(servers, 'modern-era.js'), 'utf8');
  assert.match(era, /^\/\/ \S*node_modules\/@modelcontextprotocol\/server\/dist\/index\.mjs$/m, 'the dev build names its modules');
  assert.doesNotMatch(era, /^\/\/ \S*node_modules\/zod\//m);
  const alone = `try { require(${JSON.stringify(join(servers, 'modern-era.js'))}); console.log('loaded'); } catch (e) { console.log(e.message); }`;
  assert.match(execFileSync(process.execPath, ['-e', alone], { encoding: 'utf8' }), /takes zod from the server that loads it/);
});
