import type { HttpDefinition, ServerDefinition, StdioDefinition } from './definition';
import { preview, takesFromPerson, type Template } from './template';

/** Arguments that read the same quoted or not. */
const PLAIN = /^[A-Za-z0-9_\-./:=@%+,]+$/;

/**
 * What a server would run, to show before the person agrees: the exact command line, each part
 * quoted as a POSIX shell would need it (for reading only: nothing is ever run through a shell), or
 * the URL. Inputs and values from the person's side show as their references (`${input:id}`, `${env:NAME}`).
 */
export function launchLine(d: ServerDefinition): string {
  if (d.transport !== 'stdio') return `${d.transport.toUpperCase()} ${preview(d.url)}`;
  return [d.command, ...d.args].map((t) => quote(preview(t))).join(' ');
}

/**
 * The names of the environment variables (or HTTP headers) whose values the file writes itself, and
 * that are not read from an envFile; their values are never shown (a token written in one's own
 * project's config stays off the screen).
 */
export function secretNames(d: ServerDefinition): string[] {
  const fromFile = new Set(d.transport === 'stdio' ? (d.envFile?.names ?? []) : []);
  return Object.entries(d.transport === 'stdio' ? d.env : d.headers)
    .filter(([name, value]) => !takesFromPerson(value) && !fromFile.has(name))
    .map(([name]) => name);
}

/** One value the server is given from the person's side, and where it goes. */
interface PersonValue {
  /** Which of the server's values: `argument 2`, `url`, `header X-Token`, `environment GITHUB_TOKEN`. */
  what: string;
  /** The value as written, each thing from the person's side as its reference: `Bearer ${env:GITHUB_TOKEN}`. */
  shown: string;
  /** Where it is sent: the URL's origin, or the program that gets it. */
  to: string;
}

/**
 * Every value of a server that takes something from the person's environment, home or inputs, with
 * where it goes, in the order the consent question lists them. The consent is the person's one look at
 * what leaves their side; a header's name alone hid that `${env:GITHUB_TOKEN}` rides on every request.
 */
function personValues(d: ServerDefinition): PersonValue[] {
  const values: PersonValue[] = [];
  const add = (what: string, t: Template, to: string): void => void (takesFromPerson(t) && values.push({ what, shown: oneLine(preview(t)), to }));
  if (d.transport === 'stdio') {
    // The command itself is what runs, on the launch line; what it is handed goes to it.
    const to = quote(preview(d.command));
    d.args.forEach((a, i) => add(`argument ${i + 1}`, a, to));
    for (const [name, value] of Object.entries(d.env)) add(`environment ${name}`, value, to);
    return values;
  }
  const to = destination(d);
  add('url', d.url, to);
  for (const [name, value] of Object.entries(d.headers)) add(`header ${name}`, value, to);
  return values;
}

/**
 * What the consent question says of one server beneath its launch line, one entry a line (nested
 * lines start with two spaces): where it runs, the names of what it is given from the file, and each
 * value from the person's side with where it is sent. Shared by the editor's modal and the CLI.
 */
export function consentDetails(d: ServerDefinition): string[] {
  const lines = d.transport === 'stdio' ? stdioDetails(d) : httpDetails(d);
  const values = personValues(d);
  if (values.length) lines.push('from your environment and inputs:', ...values.map((v) => `  ${v.what} = ${v.shown} → ${v.to}`));
  return lines;
}

function stdioDetails(d: StdioDefinition): string[] {
  const lines = [`in ${oneLine(d.cwdShown)}`];
  if (d.envFile) lines.push(`environment from ${oneLine(d.envFile.shown)}: ${d.envFile.names.join(', ') || '(nothing it uses)'}`);
  const names = secretNames(d);
  if (names.length) lines.push(`environment: ${names.join(', ')}`);
  return lines;
}

function httpDetails(d: HttpDefinition): string[] {
  const names = secretNames(d);
  return names.length ? [`headers: ${names.join(', ')}`] : [];
}

/** Where an HTTP server's values go: its origin (no path, query or credentials), or the URL as written while its host is a reference. */
function destination(d: HttpDefinition): string {
  const written = preview(d.url);
  try {
    const origin = new URL(written).origin;
    if (origin !== 'null') return origin;
  } catch {
    // a reference in the scheme or host: the URL as written says the most
  }
  return oneLine(written);
}

/** A value on one line: a newline in a workspace's value must not draw a line of its own in the question. */
function oneLine(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

function quote(arg: string): string {
  if (PLAIN.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
