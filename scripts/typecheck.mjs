// `npm run typecheck`: each layer against its own runtime (src/ and servers/ on Node without the DOM, media/ in a
// browser without Node), then the tests, benches and scripts, which drive both. Two at a time: one per core.
import { spawn } from 'node:child_process';

const projects = ['src', 'servers', 'media', '.'];
const tsc = 'node_modules/typescript/bin/tsc';

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ project, code, out }));
  });
}

const queue = [...projects];
const failed = [];
await Promise.all(
  [0, 1].map(async () => {
    for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
      const r = await check(p);
      if (r.code !== 0) {
        failed.push(p);
        process.stdout.write(`typecheck ${p === '.' ? 'tests' : p}/ failed:\n${r.out}`);
      }
    }
  }),
);
if (failed.length > 0) process.exit(1);
console.log(`typecheck: ${projects.length} projects pass (src, servers, media, tests)`);
