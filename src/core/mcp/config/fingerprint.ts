import { createHash } from 'node:crypto';
import type { ParsedDefinition } from './definition';
import { preview, type Template } from './template';

/**
 * A stable hash of what a definition would run: transport, command line, environment and working
 * folder, or URL and headers, after variables and envFile are resolved, with each `${input:id}` as
 * written. Not the name or the file, so a server that is only renamed or moved keeps it; not input
 * answers, so secrets never go into it and answering again does not make a trusted server new.
 */
export function fingerprintOf(d: ParsedDefinition): string {
  const launch =
    d.transport === 'stdio'
      ? { transport: d.transport, command: preview(d.command), args: d.args.map(preview), env: sorted(d.env), cwd: d.cwd }
      : { transport: d.transport, url: preview(d.url), headers: sorted(d.headers) };
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex');
}

/** Entries sorted by name, so the order keys were written in does not change the hash. */
function sorted(record: Record<string, Template>): Array<[string, string]> {
  return Object.entries(record)
    .map(([k, v]): [string, string] => [k, preview(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
