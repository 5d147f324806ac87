// The official MCP conformance suite against our client (the CLI, through test/fakes/conformance-client.ts) and
// our bundled servers (over --http), checked against test/conformance/baseline.json.
// Usage: node test/conformance/run.mjs [--spec 2025-11-25|2026-07-28] [--baseline <file>] [--scenario <name>]...
//   after `node esbuild.mjs`; `npm test` runs it for each spec after the node tests. --spec picks the era's suite
//   (suite.mjs SUITES: its package, scenarios and baseline files; default 2025-11-25); --scenario runs only the
//   scenarios named (client, or server on the servers the scenarios file runs it on); --baseline reads another
//   baseline file (tests).
// Fails on a scenario that fails without being in the baseline (the suite's own output follows), on a baseline
// entry that now passes ("remove it from the baseline"), and on a server scenario of the spec version that
// scenarios.json neither runs nor calls not applicable.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { startHttpServer } from './http-server.mjs';
import { expectedFailuresYaml, listScenarios, outcomeOf, runSuite, SUITES, suitePaths, unsupportedPlatform } from './suite.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const { values: options } = parseArgs({
  options: { spec: { type: 'string', default: '2025-11-25' }, baseline: { type: 'string' }, scenario: { type: 'string', multiple: true } },
});
const SUITE = SUITES[options.spec];
if (!SUITE) {
  console.error(`conformance: --spec ${options.spec}: no suite for it (${Object.keys(SUITES).join(', ')})`);
  process.exit(2);
}
const BASELINE = options.baseline ?? join(HERE, SUITE.baseline);
const BASELINE_NAME = BASELINE.startsWith(ROOT) ? relative(ROOT, BASELINE) : BASELINE;
/** The scenarios to run: all, or those named with --scenario. */
const wanted = (name) => !options.scenario || options.scenario.includes(name);
const SCENARIOS = join(HERE, SUITE.scenarios);
const ADAPTER = join('out', 'test', 'fakes', 'conformance-client.js');
/** A client scenario's own limit in the suite; ours (the kill) is well past it, to prove nothing hangs. */
const CLIENT_TIMEOUT_MS = 30_000;

const Reason = z.string().trim().min(1, 'say why');
const BaselineFile = z.object({
  client: z.record(z.string(), Reason),
  server: z.record(z.string(), z.record(z.string(), Reason)),
});
const ScenariosFile = z.object({
  specVersion: z.string(),
  olderClientScenarios: z.record(z.string(), Reason).default({}),
  servers: z.record(z.string(), z.array(z.string()).min(1)),
  notApplicable: z.record(z.string(), Reason),
});

function readJson(file, schema) {
  const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${relative(ROOT, file)}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Every name in the two files is one of the suite's scenarios, and every server scenario is accounted for. */
function checkFiles(baseline, scenarios, suite) {
  const problems = [];
  const runs = new Set(Object.values(scenarios.servers).flat());
  for (const name of suite.server) {
    if (!runs.has(name) && !(name in scenarios.notApplicable)) {
      problems.push(`server scenario ${name} is new: run it against the servers it applies to, or list it under notApplicable with why (${SUITE.scenarios})`);
    }
  }
  for (const name of [...runs, ...Object.keys(scenarios.notApplicable)]) {
    if (!suite.server.includes(name)) problems.push(`${SUITE.scenarios} names ${name}, which is no server scenario of spec ${scenarios.specVersion}`);
  }
  for (const name of Object.keys(scenarios.notApplicable)) {
    if (runs.has(name)) problems.push(`${SUITE.scenarios} both runs ${name} and calls it not applicable`);
  }
  for (const name of Object.keys(scenarios.olderClientScenarios)) {
    if (!suite.everyClient.includes(name)) problems.push(`${SUITE.scenarios} names client scenario ${name}, which the suite does not have`);
  }
  for (const name of Object.keys(baseline.client)) {
    if (!suite.client.includes(name))
      problems.push(`${BASELINE_NAME} lists client scenario ${name}, which the suite does not have for spec ${scenarios.specVersion}`);
  }
  for (const [server, entries] of Object.entries(baseline.server)) {
    for (const name of Object.keys(entries)) {
      if (!scenarios.servers[server]?.includes(name))
        problems.push(`${BASELINE_NAME} lists ${name} for the ${server} server, which ${SUITE.scenarios} does not run against it`);
    }
  }
  for (const name of options.scenario ?? []) {
    if (!suite.client.includes(name) && !runs.has(name))
      problems.push(`--scenario ${name}: no client scenario, and no server scenario ${SUITE.scenarios} runs`);
  }
  return problems;
}

/** One scenario through the suite with the baseline's verdict; prints a line, and the suite's output when it matters. */
async function runScenario(paths, work, scenario) {
  const { label, reason } = scenario;
  let run = await runOnce(paths, work, scenario);
  // The suite turns "slightly late" into a WARNING, which fails a run (sse-retry allows 200 ms over the server's
  // `retry`): on a loaded machine a run whose only problem is such a timing warning gets one more try.
  if (run.outcome === 'failed' && onlyTimingWarnings(run.dir)) {
    console.log(`  ? ${label}: only timing warnings (${warnings(run.dir).join('; ')}); running it once more`);
    run = await runOnce(paths, work, scenario);
  }
  const { outcome, dir, output } = run;
  if (outcome === 'passed') console.log(`  ✓ ${label}`);
  else if (outcome === 'expected') console.log(`  ~ ${label} (in the baseline: ${reason})`);
  else if (outcome === 'stale') {
    console.log(`  ✗ ${label} passed but is in ${BASELINE_NAME}: remove it from the baseline`);
  } else {
    console.log(`  ✗ ${label} failed and is not in ${BASELINE_NAME} (results: ${dir}):\n${indent(output)}`);
  }
  if (outcome === 'passed' || outcome === 'expected') rmSync(dir, { recursive: true, force: true });
  return outcome;
}

async function runOnce(paths, work, { kind, name, reason, args }) {
  const dir = mkdtempSync(join(work, 'run-'));
  const yaml = join(dir, 'expected-failures.yml');
  writeFileSync(yaml, expectedFailuresYaml(kind, reason === undefined ? [] : [name]));
  const { code, output } = await runSuite(paths, [...args, '--expected-failures', yaml, '-o', join(dir, 'results')], {
    cwd: ROOT,
    timeoutMs: CLIENT_TIMEOUT_MS * 3,
  });
  return { outcome: outcomeOf(code, output, reason !== undefined), dir, output };
}

/** The checks the suite saved for a run (results/<scenario>-<time>/checks.json), empty when there are none. */
function savedChecks(dir) {
  const results = join(dir, 'results');
  if (!existsSync(results)) return [];
  return readdirSync(results, { recursive: true })
    .filter((f) => String(f).endsWith('checks.json'))
    .flatMap((f) => JSON.parse(readFileSync(join(results, String(f)), 'utf8')));
}

function warnings(dir) {
  return savedChecks(dir)
    .filter((c) => c.status === 'WARNING')
    .map((c) => `${c.id}: ${c.errorMessage ?? c.description}`);
}

/** The suite's checks that measure time (a loaded machine can be late); other warnings are real findings. */
const TIMING_CHECKS = new Set(['client-sse-retry-timing']);

function onlyTimingWarnings(dir) {
  const problems = savedChecks(dir).filter((c) => c.status === 'WARNING' || c.status === 'FAILURE');
  return problems.length > 0 && problems.every((c) => c.status === 'WARNING' && TIMING_CHECKS.has(c.id));
}

async function clientScenarios(paths, work, names, baseline) {
  console.log(`client scenarios (spec ${options.spec}), against the CLI (${ADAPTER}):`);
  const outcomes = [];
  // One at a time: each starts the CLI and its bundled servers, and sse-retry times the client's reconnect.
  for (const name of names.filter(wanted)) {
    const args = ['client', '--command', `${process.execPath} ${ADAPTER}`, '--scenario', name, ...SUITE.versionArgs, '--timeout', String(CLIENT_TIMEOUT_MS)];
    outcomes.push(await runScenario(paths, work, { kind: 'client', label: name, name, reason: baseline.client[name], args }));
  }
  return outcomes;
}

async function serverScenarios(paths, work, scenarios, baseline) {
  const outcomes = [];
  for (const [server, all] of Object.entries(scenarios.servers)) {
    const names = all.filter(wanted);
    if (names.length === 0) continue;
    const workspace = mkdtempSync(join(work, `${server}-ws-`));
    const serving = await startHttpServer(ROOT, server, workspace);
    console.log(`server scenarios (spec ${options.spec}), against dist/servers/${server}.js --http (${serving.url}):`);
    try {
      for (const name of names) {
        const reason = baseline.server[server]?.[name];
        const args = ['server', '--url', serving.url, '--scenario', name, ...SUITE.versionArgs];
        outcomes.push(await runScenario(paths, work, { kind: 'server', label: `${server}: ${name}`, name, reason, args }));
      }
    } finally {
      await serving.stop();
    }
  }
  return outcomes;
}

function count(outcomes, what) {
  return outcomes.filter((o) => o === what).length;
}

function indent(text) {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
}

async function main() {
  const unsupported = unsupportedPlatform();
  if (unsupported) {
    console.log(`conformance: skipped: ${unsupported}`);
    return 0;
  }
  for (const built of [ADAPTER, join('dist', 'cli.js')]) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run node esbuild.mjs first`);
  }
  const paths = suitePaths(ROOT, SUITE.pkg);
  const baseline = readJson(BASELINE, BaselineFile);
  const scenarios = readJson(SCENARIOS, ScenariosFile);
  const older = Object.keys(scenarios.olderClientScenarios);
  const suite = {
    // This version's client scenarios, and those of earlier versions the scenarios file still runs.
    client: [...new Set([...listScenarios(paths, 'client', scenarios.specVersion), ...older])],
    server: listScenarios(paths, 'server', scenarios.specVersion),
    everyClient: older.length > 0 ? listScenarios(paths, 'client') : [],
  };
  const problems = checkFiles(baseline, scenarios, suite);
  if (problems.length > 0) {
    for (const p of problems) console.log(`conformance: ${p}`);
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  let keep = false;
  try {
    const client = await clientScenarios(paths, work, suite.client, baseline);
    const server = await serverScenarios(paths, work, scenarios, baseline);
    const pairs = server.length;
    const notApplicable = Object.keys(scenarios.notApplicable).length;
    console.log(
      `\nconformance (spec ${scenarios.specVersion}):\n` +
        `  client: ${count(client, 'passed')} passed, ${count(client, 'expected')} in the baseline, ${client.length} scenarios\n` +
        `  server: ${count(server, 'passed')} passed, ${count(server, 'expected')} in the baseline, ${pairs} runs of ` +
        `${suite.server.length - notApplicable} scenarios on ${Object.keys(scenarios.servers).length} servers; ` +
        `${notApplicable} of the suite's ${suite.server.length} server scenarios need its own test server (${SUITE.scenarios})`,
    );
    const bad = [...client, ...server].filter((o) => o === 'failed' || o === 'stale').length;
    keep = bad > 0;
    if (keep)
      console.log(`conformance: ${bad} scenario run${bad === 1 ? '' : 's'} did not match the baseline (above; the suite's results are kept in ${work})`);
    return keep ? 1 : 0;
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`conformance: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
