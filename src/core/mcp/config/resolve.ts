import type { ServerConfig, ServerSource } from '../types';
import type { ServerDefinition } from './definition';
import type { ConfigDiagnostic } from './diagnostic';
import { render, type Template } from './template';
import { mapValues } from './transport';
import type { AskInput } from './vscode-inputs';

/** A server ready to hand to the hub, with the definition it came from. */
export interface LoadedServer {
  config: ServerConfig;
  definition: ServerDefinition;
}

/**
 * Turns definitions the person agreed to start into configs for the hub. Each input is asked once
 * per call (one answer per input id and file, however many servers use it), in order; a server
 * whose input was not answered is left out with a diagnostic, the others go ahead.
 */
export async function resolveServers(
  definitions: readonly ServerDefinition[],
  ask: AskInput,
): Promise<{ servers: LoadedServer[]; diagnostics: ConfigDiagnostic[] }> {
  const answers = new Map<string, string | undefined>();
  const servers: LoadedServer[] = [];
  const diagnostics: ConfigDiagnostic[] = [];
  for (const definition of definitions) {
    const values = new Map<string, string>();
    let unanswered: string | undefined;
    for (const input of definition.inputs) {
      const key = `${definition.source.file}\0${input.id}`;
      if (!answers.has(key)) answers.set(key, await ask(input, definition.source));
      const answer = answers.get(key);
      if (answer === undefined) {
        unanswered = input.id;
        break;
      }
      values.set(input.id, answer);
    }
    if (unanswered !== undefined) {
      diagnostics.push({
        file: definition.source.file,
        ...definition.position,
        severity: 'error',
        message: `server "${definition.key}" was not started: input "${unanswered}" was not answered`,
        server: definition.key,
      });
      continue;
    }
    servers.push({ config: configOf(definition, (id) => values.get(id) ?? ''), definition });
  }
  return { servers, diagnostics };
}

function configOf(d: ServerDefinition, input: (id: string) => string): ServerConfig {
  const text = (t: Template): string => render(t, input);
  const source: ServerSource = { file: d.source.file, format: d.source.format, origin: d.source.origin, key: d.key };
  const limit = d.startTimeoutMs === undefined ? {} : { startTimeoutMs: d.startTimeoutMs };
  if (d.transport === 'stdio') {
    return { name: d.name, transport: 'stdio', command: text(d.command), args: d.args.map(text), env: mapValues(d.env, text), cwd: d.cwd, source, ...limit };
  }
  return { name: d.name, transport: d.transport, url: text(d.url), headers: mapValues(d.headers, text), source, ...limit };
}
