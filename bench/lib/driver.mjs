// A bench section's driver: TypeScript that imports the extension's own modules, bundled by esbuild into
// out/bench/ and required, so the section measures the code as it ships.
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { ROOT } from './setup.mjs';

/**
 * `entry` relative to the repo; `external`: its npm packages are required from node_modules rather than bundled
 * (the ones that load a browser or code-server).
 */
export async function loadDriver(entry, { external = false } = {}) {
  const esbuild = await import('esbuild');
  const outfile = join(ROOT, 'out', 'bench', basename(entry).replace(/\.ts$/, '.cjs'));
  await esbuild.build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    ...(external ? { packages: 'external' } : {}),
    logLevel: 'warning',
    absWorkingDir: ROOT,
  });
  return createRequire(import.meta.url)(outfile);
}
