import { createHash } from 'node:crypto';
import type { ParsedDefinition } from './definition';
import { preview, takesFromPerson, type Template } from './template';

/**
 * A stable hash of what a definition would run, as the person is shown it before they agree:
 * transport, command line, environment and working folder, or URL and headers, with the file's text
 * and envFile's values as they are and each value from the person's side as its reference
 * (`${input:id}`, `${env:NAME}`, `${userHome}`). So pointing a header at another variable
 * (`${env:A}` to `${env:GITHUB_TOKEN}`) asks again even when both hold the same text, while the person
 * changing their own variable's value (a renewed token) does not: they agreed to send that variable
 * there, and it is theirs, not the workspace's. Not the name or the file, so a server that is only
 * renamed or moved keeps it; no input answer and no value of the person's variables, so those
 * secrets never go into it.
 */
export function fingerprintOf(d: ParsedDefinition): string {
  const launch =
    d.transport === 'stdio'
      ? { transport: d.transport, command: shape(d.command), args: d.args.map(shape), env: sorted(d.env), cwd: d.cwdShown }
      : { transport: d.transport, url: shape(d.url), headers: sorted(d.headers) };
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex');
}

/**
 * A template as hashed: text written in the file is a string (so such definitions keep the hash they
 * always had); one that takes from the person is a list of its parts, so a reference never hashes
 * like the same characters written as plain text (Claude's format does not expand `${env:X}`).
 */
function shape(t: Template): string | unknown[] {
  if (!takesFromPerson(t)) return preview(t);
  return t.map((p) => (typeof p === 'string' ? p : 'input' in p ? { input: p.input } : { variable: p.variable }));
}

/** Entries sorted by name, so the order keys were written in does not change the hash. */
function sorted(record: Record<string, Template>): Array<[string, string | unknown[]]> {
  return Object.entries(record)
    .map(([k, v]): [string, string | unknown[]] => [k, shape(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
