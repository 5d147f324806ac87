// `npm test`: the layer check and the typecheck, then whatever the tests need installed (Chromium, bubblewrap,
// code-server), the build, the node:test unit and integration suites, then the real-VS-Code rig.
// Usage: node scripts/test.mjs [--no-vscode | --conformance-only]   (`npm run test:unit` is `--no-vscode`: no
// code-server; `--conformance-only` builds and runs just the MCP conformance suite, test/conformance/run.mjs)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureVscode } from './ensure-vscode.mjs';
import { onNpmNode } from './npm-node.mjs';

onNpmNode();
const withVscode = !process.argv.includes('--no-vscode');
const conformanceOnly = process.argv.includes('--conformance-only');

function run(cmd, args, opts = {}) {
  console.log(`\n> ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return findTests(p);
    return name.endsWith('.test.js') ? [p] : [];
  });
}

// The official MCP conformance suite against the CLI and the bundled servers (it skips itself, saying why, off linux-x64).
const conformance = () => run(process.execPath, ['test/conformance/run.mjs']);
if (conformanceOnly) {
  run(process.execPath, ['esbuild.mjs']);
  conformance();
  process.exit(0);
}

run(process.execPath, ['scripts/check-layers.mjs']);
run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.', '--noEmit']);
// Before the first test: the webview tests launch Chromium and the run_code tests use bubblewrap. A test that
// finds either missing fails at once naming the fix; this step is what makes a fresh machine have them.
console.log('\n> ensure test prerequisites');
try {
  ensureVscode({ browser: true, sandbox: true, codeServer: withVscode });
} catch (err) {
  console.error(`\nsetting up the tests failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
run(process.execPath, ['esbuild.mjs']);
run(process.execPath, [
  '--test',
  '--test-reporter=spec',
  '--test-concurrency=2',
  // A test that hangs fails after this long instead of holding CI until its own limit.
  '--test-timeout=300000',
  ...findTests('out/test/unit'),
  ...findTests('out/test/integration'),
]);
conformance();
if (withVscode) run(process.execPath, ['scripts/test-vscode.mjs', '--no-build']);
