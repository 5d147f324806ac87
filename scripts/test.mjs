// `npm test`: the layer check and the typecheck, then whatever the tests need installed (Chromium, bubblewrap,
// code-server: the oldest VS Code engines.vscode claims and today's), the build, the node:test tiers (unit,
// webview in Chromium, integration with real processes), the MCP conformance suite, then the real-VS-Code rig.
// Usage: node scripts/test.mjs [--fast | --no-vscode | --conformance-only]
//   --fast (`npm run test:fast`): the edit-test loop: layers, typecheck, lint (ESLint, knip), format check, build, test/unit (in-process: no browser,
//          no code-server, no installs)
//   --no-vscode (`npm run test:unit`): everything but code-server
//   --conformance-only: builds and runs just the MCP conformance suite, test/conformance/run.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureVscode } from './ensure-vscode.mjs';
import { machineFactor, scaled } from './machine-factor.mjs';
const withVscode = !process.argv.includes('--no-vscode');
const conformanceOnly = process.argv.includes('--conformance-only');
const fast = process.argv.includes('--fast');

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

// The official MCP conformance suite against the CLI and the bundled servers (it skips itself, saying why, off linux-x64):
// 0.1.16 for the 2025-11-25 era, then the pinned 0.2 pre-release for 2026-07-28 (each with its own baseline).
const conformance = () => {
  run(process.execPath, ['test/conformance/run.mjs', '--spec', '2025-11-25']);
  run(process.execPath, ['test/conformance/run.mjs', '--spec', '2026-07-28']);
};
if (conformanceOnly) {
  run(process.execPath, ['esbuild.mjs']);
  conformance();
  process.exit(0);
}

const started = Date.now();
run(process.execPath, ['scripts/check-layers.mjs']);
run(process.execPath, ['scripts/typecheck.mjs']);
// ESLint with type information (eslint.config.mjs); cached, so an edit-test loop pays for what changed.
run(process.execPath, ['node_modules/eslint/bin/eslint.js', '--cache', '--cache-location', 'out/eslintcache', '.']);
// Unused files, exports and dependencies (knip.jsonc: its entries are every bundle esbuild.mjs builds, and the
// tests, benches and scripts). Cached like the lint; a stale line of its config fails it too.
run(process.execPath, ['node_modules/knip/bin/knip.js', '--no-progress', '--treat-config-hints-as-errors', '--cache', '--cache-location', 'out/knipcache']);
// One format (.prettierrc.json); `npm run format` writes it. Cached like the lint.
run(process.execPath, ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '--cache', '--cache-location', 'out/prettiercache', '.']);
/**
 * node:test over these files, two at a time. A wait that does not end fails at its own deadline, saying what it waited
 * for (test/support/until.ts); this limit is the last resort for a file that hangs anyway. On Node 20 it bounds each
 * whole file, whatever its tests' own `{ timeout }` say, so it stays above the slowest file's need (compile-cache may
 * download Node 22 within its 240 s) and is scaled like the tests' limits: 5 minutes on an idle machine, never
 * more than 15, so one hung file cannot take CI's whole time.
 */
const nodeTests = (files) => {
  console.log(`\nmachine factor ${machineFactor().toFixed(1)}: the tests' limits are scaled by it (each test file measures its own)`);
  run(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', `--test-timeout=${Math.min(scaled(300_000), 900_000)}`, ...files]);
};
if (fast) {
  run(process.execPath, ['esbuild.mjs']);
  nodeTests(findTests('out/test/unit'));
  console.log(`\nfast tier passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}
// Before the first test: the webview tests launch Chromium and the run_code tests use bubblewrap. A test that
// finds either missing fails at once naming the fix; this step is what makes a fresh machine have them.
console.log('\n> ensure test prerequisites');
try {
  ensureVscode({ browser: true, sandbox: true, codeServer: withVscode, targets: ['oldest', 'today'] });
} catch (err) {
  console.error(`\nsetting up the tests failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
run(process.execPath, ['esbuild.mjs']);
nodeTests(['unit', 'webview', 'integration'].flatMap((tier) => findTests(`out/test/${tier}`)));
conformance();
if (withVscode) run(process.execPath, ['scripts/test-vscode.mjs', '--no-build']);
