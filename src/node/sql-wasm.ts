import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** dist/servers/sql-wasm.wasm next to the bundle; node_modules when running from sources or tests. */
export function locateWasm(file: string): string {
  const beside = join(__dirname, file);
  if (existsSync(beside)) return beside;
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'dist', 'servers', file), join(dir, 'node_modules', 'sql.js', 'dist', file)]) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return beside;
}
