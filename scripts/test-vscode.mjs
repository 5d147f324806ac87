// The real-VS-Code tests: the mocha suite in code-server's extension host (through @vscode/test-electron's
// runTests and our launcher), then the Playwright UI tests in out/test/ui. Leaves no code-server behind.
// Usage: node scripts/test-vscode.mjs [--no-build] [--suite-only | --ui-only] [out/test/ui/x.test.js ...]
// Env: MCP_AGENT_SUITE_GREP (mocha grep in the extension host), MCP_AGENT_UI_CONCURRENCY (default 1).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ensureVscode } from './ensure-vscode.mjs';

const root = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const artifacts = process.env.MCP_AGENT_ARTIFACTS_DIR ?? join(root, '.test-artifacts');
const pidsDir = mkdtempSync(join(tmpdir(), 'mcp-agent-rig-pids-'));
process.env.MCP_AGENT_RIG_PIDS_DIR = pidsDir;
process.env.MCP_AGENT_ARTIFACTS_DIR = artifacts;

/** Kills every code-server group a test process started and did not stop (it crashed or was killed). */
function reapLeftovers() {
  if (!existsSync(pidsDir)) return 0;
  let left = 0;
  for (const name of readdirSync(pidsDir)) {
    const pgid = Number(readFileSync(join(pidsDir, name), 'utf8'));
    try {
      process.kill(-pgid, 'SIGKILL');
      left++;
    } catch {
      // already gone
    }
  }
  rmSync(pidsDir, { recursive: true, force: true });
  return left;
}

let uiChild;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    uiChild?.kill('SIGTERM');
    reapLeftovers();
    process.exit(code);
  });
}
process.on('exit', reapLeftovers);

function step(title) {
  console.log(`\n=== ${title}`);
  return Date.now();
}

/** runTests spawns its "VS Code" directly, so the launcher bundle gets an executable wrapper. */
function launcherExecutable() {
  const bundle = join(root, 'out', 'test', 'vscode', 'launcher.js');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run node esbuild.mjs`);
  const wrapper = join(root, 'out', 'test', 'vscode', 'launcher');
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  writeFileSync(wrapper, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(bundle)} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

/** A throwaway copy of sample-workspace/ (or an empty folder) for the extension-host suite to open. */
function suiteWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-suite-ws-'));
  const sample = join(root, 'sample-workspace');
  if (existsSync(sample)) cpSync(sample, dir, { recursive: true });
  return dir;
}

async function runSuite() {
  const started = step('extension-host suite (mocha in code-server, via @vscode/test-electron runTests)');
  const workspace = suiteWorkspace();
  try {
    await runTests({
      vscodeExecutablePath: launcherExecutable(),
      extensionDevelopmentPath: root,
      extensionTestsPath: join(root, 'dist', 'test', 'suite', 'index.js'),
      launchArgs: [workspace],
    });
    console.log(`extension-host suite passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return true;
  } catch (err) {
    console.error(`extension-host suite failed: ${err instanceof Error ? err.message : err}`);
    return false;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

function runUi() {
  const dir = join(root, 'out', 'test', 'ui');
  const chosen = argv.filter((a) => a.endsWith('.test.js')).map((a) => resolve(a));
  const all = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.test.js'))
        .map((f) => join(dir, f))
    : [];
  const files = chosen.length ? chosen : all;
  if (files.length === 0) {
    console.log('no UI tests in out/test/ui');
    return Promise.resolve(true);
  }
  const started = step(`UI tests (${files.length} file(s), Chromium + code-server)`);
  const concurrency = process.env.MCP_AGENT_UI_CONCURRENCY ?? '1';
  return new Promise((done) => {
    uiChild = spawn(process.execPath, ['--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files], {
      stdio: 'inherit',
    });
    uiChild.on('exit', (code, signal) => {
      uiChild = undefined;
      console.log(`UI tests ${code === 0 ? 'passed' : `failed (${code ?? signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      done(code === 0);
    });
  });
}

async function main() {
  step('ensure code-server and chromium');
  ensureVscode({ browser: true });
  if (!argv.includes('--no-build')) {
    step('build');
    const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) return 1;
  }
  mkdirSync(artifacts, { recursive: true });
  const suiteOk = argv.includes('--ui-only') ? true : await runSuite();
  const uiOk = argv.includes('--suite-only') ? true : await runUi();
  const leaked = reapLeftovers();
  if (leaked) console.error(`killed ${leaked} code-server process group(s) a test left running`);
  console.log(`\nscreenshots: ${join(artifacts, 'screenshots')}\nlogs:        ${join(artifacts, 'logs')}`);
  return suiteOk && uiOk ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
