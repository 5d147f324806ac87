// The real-VS-Code tests: the mocha suite in code-server's extension host (through @vscode/test-electron's
// runTests and our launcher), then the Playwright UI tests in out/test/ui, in two tiers: everything on the oldest
// VS Code that engines.vscode claims, then the suite and TODAY_UI on today's. Leaves no code-server behind.
// Usage: node scripts/test-vscode.mjs [--no-build] [--suite-only | --ui-only] [--vscode oldest|today|both]
//          [out/test/ui/x.test.js ...]   (named UI files run on each chosen VS Code; default: both)
// Env: MCP_AGENT_SUITE_GREP (mocha grep in the extension host), MCP_AGENT_UI_CONCURRENCY (UI files at once, default 1).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { VSCODE_TARGETS } from './code-server.mjs';
import { ensureVscode } from './ensure-vscode.mjs';

const root = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const artifacts = process.env.MCP_AGENT_ARTIFACTS_DIR ?? join(root, '.test-artifacts');
/**
 * What also runs on today's VS Code (the whole UI set runs on the oldest), chosen so the whole suite stays within its
 * time aim: the packaged .vsix installed and started, the person's settings in a remote window against a folder's
 * (trusted and Restricted Mode), the chat's turns with tool cards and approvals at 300 px, an MCP App view, and
 * the chat beside VS Code's own (which 1.100 does not have in that form), and a server's resources opened as
 * documents (1.139's own MCP host claims the scheme 1.100 left free).
 */
const TODAY_UI = ['vsix', 'folder-settings', 'tool-cards', 'apps', 'beside-vscode', 'resources'];
const chosenTargets = (() => {
  const i = argv.indexOf('--vscode');
  const v = i === -1 ? 'both' : argv[i + 1];
  if (v === 'both') return [VSCODE_TARGETS.oldest, VSCODE_TARGETS.today];
  if (!VSCODE_TARGETS[v]) throw new Error(`--vscode ${v}: expected oldest, today or both`);
  return [VSCODE_TARGETS[v]];
})();
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

async function runSuite(target) {
  const started = step(`extension-host suite on VS Code ${target.vscode} (mocha in code-server, via @vscode/test-electron runTests)`);
  const workspace = suiteWorkspace();
  try {
    await runTests({
      vscodeExecutablePath: launcherExecutable(),
      extensionDevelopmentPath: root,
      extensionTestsPath: join(root, 'dist', 'test', 'suite', 'index.js'),
      launchArgs: [workspace],
    });
    console.log(`extension-host suite on VS Code ${target.vscode} passed in ${seconds(started)} s`);
    return true;
  } catch (err) {
    console.error(`extension-host suite on VS Code ${target.vscode} failed after ${seconds(started)} s: ${err instanceof Error ? err.message : err}`);
    return false;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Runs one part of a tier and notes its time in `parts`, for the summary at the end. */
async function timed(parts, what, run) {
  const started = Date.now();
  const ok = await run();
  parts.push(`${what} ${seconds(started)} s`);
  return ok;
}

function seconds(since) {
  return ((Date.now() - since) / 1000).toFixed(1);
}

/** The UI test files for a target: the ones named on the command line, else all (oldest) or TODAY_UI (today). */
function uiFiles(target) {
  const dir = join(root, 'out', 'test', 'ui');
  const chosen = argv.filter((a) => a.endsWith('.test.js')).map((a) => resolve(a));
  if (chosen.length) return chosen;
  const all = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.test.js'))
        .map((f) => join(dir, f))
    : [];
  if (target.name === 'oldest') return all;
  const missing = TODAY_UI.filter((name) => !all.includes(join(dir, `${name}.test.js`)));
  if (missing.length) throw new Error(`TODAY_UI names UI tests that are not built: ${missing.join(', ')}`);
  return TODAY_UI.map((name) => join(dir, `${name}.test.js`));
}

/** UI files at once. */
const UI_CONCURRENCY = process.env.MCP_AGENT_UI_CONCURRENCY ?? '1';

function runUi(target) {
  const files = uiFiles(target);
  if (files.length === 0) {
    console.log('no UI tests in out/test/ui');
    return Promise.resolve(true);
  }
  const started = step(`UI tests on VS Code ${target.vscode} (${files.length} file(s), ${UI_CONCURRENCY} at a time, Chromium + code-server)`);
  return new Promise((done) => {
    uiChild = spawn(process.execPath, ['--test', '--test-reporter=spec', `--test-concurrency=${UI_CONCURRENCY}`, ...files], {
      stdio: 'inherit',
    });
    uiChild.on('exit', (code, signal) => {
      uiChild = undefined;
      console.log(`UI tests on VS Code ${target.vscode} ${code === 0 ? 'passed' : `failed (${code ?? signal})`} in ${seconds(started)} s`);
      done(code === 0);
    });
  });
}

/**
 * What a test process needs to know of its tier: which VS Code to start (read by scripts/code-server.mjs), and a
 * folder of its own for screenshots and logs so the two tiers' files do not overwrite each other.
 */
function tierEnv(target) {
  process.env.MCP_AGENT_VSCODE = target.name;
  process.env.MCP_AGENT_ARTIFACTS_DIR = target.name === 'oldest' ? artifacts : join(artifacts, `vscode-${target.vscode}`);
  mkdirSync(process.env.MCP_AGENT_ARTIFACTS_DIR, { recursive: true });
}

async function main() {
  step('ensure code-server and chromium');
  ensureVscode({ browser: true, targets: chosenTargets.map((t) => t.name) });
  if (!argv.includes('--no-build')) {
    step('build');
    const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) return 1;
  }
  const times = [];
  let ok = true;
  for (const target of chosenTargets) {
    tierEnv(target);
    const started = Date.now();
    const parts = [];
    const suiteOk = argv.includes('--ui-only') ? true : await timed(parts, 'extension-host suite', () => runSuite(target));
    const uiOk = argv.includes('--suite-only') ? true : await timed(parts, `UI ${uiFiles(target).length} file(s)`, () => runUi(target));
    times.push(
      `VS Code ${target.vscode} (code-server ${target.codeServer}): ${suiteOk && uiOk ? 'passed' : 'FAILED'} in ${seconds(started)} s (${parts.join(', ')})`,
    );
    ok &&= suiteOk && uiOk;
  }
  const leaked = reapLeftovers();
  if (leaked) console.error(`killed ${leaked} code-server process group(s) a test left running`);
  console.log(`\n${times.join('\n')}`);
  console.log(
    `\nscreenshots: ${join(artifacts, 'screenshots')} (today's VS Code: under ${join(artifacts, 'vscode-*')})\nlogs:        ${join(artifacts, 'logs')}`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
