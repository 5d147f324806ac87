// `npm test`: build, then the node:test unit and integration suites, then the real-VS-Code rig.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

run(process.execPath, ['esbuild.mjs']);
run(process.execPath, [
  '--test',
  '--test-reporter=spec',
  '--test-concurrency=2',
  ...findTests('out/test/unit'),
  ...findTests('out/test/integration'),
]);
if (existsSync('scripts/test-vscode.mjs') && !process.argv.includes('--no-vscode')) {
  run(process.execPath, ['scripts/test-vscode.mjs']);
}
