import type { ServerDefinition } from './definition';
import { preview } from './template';

/** Arguments that read the same quoted or not. */
const PLAIN = /^[A-Za-z0-9_\-./:=@%+,]+$/;

/**
 * What a server would run, to show before the person agrees: the exact command line, each part
 * quoted as a POSIX shell would need it (for reading only: nothing is ever run through a shell), or
 * the URL. Inputs show as `${input:id}`.
 */
export function launchLine(d: ServerDefinition): string {
  if (d.transport !== 'stdio') return `${d.transport.toUpperCase()} ${preview(d.url)}`;
  return [d.command, ...d.args].map((t) => quote(preview(t))).join(' ');
}

/** The names of the environment variables (or HTTP headers) a server is given; never their values. */
export function secretNames(d: ServerDefinition): string[] {
  return Object.keys(d.transport === 'stdio' ? d.env : d.headers);
}

function quote(arg: string): string {
  if (PLAIN.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
