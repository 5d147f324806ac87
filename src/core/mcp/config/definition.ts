import type { ServerSource } from '../types';
import type { Position } from './jsonc-document';
import type { Template } from './template';
import type { InputRequest } from './vscode-inputs';

/** One config file to read servers from. */
export interface ConfigSource {
  /** Absolute path. */
  file: string;
  format: ServerSource['format'];
  origin: ServerSource['origin'];
}

interface DefinitionBase {
  /** The server's name in the file. */
  key: string;
  /** The name the host uses: unique across every source and bundled server, safe inside tool names. */
  name: string;
  source: ConfigSource;
  /** Where the server's name is in the file. */
  position: Position;
  /** The `inputs` this server needs answered before it can start, in order of first use. */
  inputs: InputRequest[];
  /**
   * A stable hash of what would run (see fingerprint.ts): the same while the definition, and the
   * variables and envFile it draws on, stay the same. Trust answers can be remembered against it.
   */
  fingerprint: string;
  /** `startTimeout` of the file: how long this server is given to answer initialize, over the host's limit. */
  startTimeoutMs?: number;
}

/** A stdio server as read from its file: variables resolved, inputs not yet asked. */
export interface StdioDefinition extends DefinitionBase {
  transport: 'stdio';
  command: Template;
  args: Template[];
  /** envFile's entries first, then `env`'s, which win. */
  env: Record<string, Template>;
  /** Absolute. */
  cwd: string;
  /**
   * What the person is shown for `cwd`: the path, or, when it was written with a value from their side
   * (`${userHome}/x`, `${env:DIR}`), as written, so a value is never on screen.
   */
  cwdShown: string;
  /** The envFile it read: absolute, shown as cwd is, and the names `env` takes from it (those `env` does not set itself). */
  envFile?: { path: string; shown: string; names: string[] };
}

export interface HttpDefinition extends DefinitionBase {
  transport: 'http' | 'sse';
  url: Template;
  headers: Record<string, Template>;
}

export type ServerDefinition = StdioDefinition | HttpDefinition;

/** What a format reader returns for one server, before names and fingerprints are given across all files. */
export type ParsedDefinition = DistributiveOmit<ServerDefinition, 'name' | 'fingerprint'>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
