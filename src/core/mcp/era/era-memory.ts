import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../types';

/** The two protocol eras: `modern` is 2026-07-28 (server/discover, no initialize), `legacy` 2024-10-07 to 2025-11-25. */
export type ProtocolEra = 'modern' | 'legacy';

/** What a server answered with the last time it was connected. */
export interface EraVerdict {
  era: ProtocolEra;
  /** For `modern`: its server/discover result, so the next connect needs no round trip to learn it again. */
  discover?: DiscoverResult;
  /** When it was learned (ms since the epoch). */
  at: number;
}

/**
 * Where the host keeps each server definition's era, so a known server is connected in its era at once: no
 * probe, and no second process for a stdio server. A front end gives a file (eras.json in the person's
 * MCP Agent folder); without one, the host remembers for as long as it runs.
 */
export interface EraMemory {
  recall(key: string): EraVerdict | undefined;
  remember(key: string, verdict: EraVerdict): void;
  forget(key: string): void;
}

/**
 * A legacy verdict is trusted this long, then the server is asked again: a stale legacy verdict would go on
 * working silently against a server that moved to the new era (a stale modern one fails loudly and is
 * forgotten at once, see connection.ts).
 */
export const LEGACY_VERDICT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The definition a verdict belongs to: what runs (command and arguments, or the URL), not its name, its
 * environment or its headers, which hold secrets and do not decide what the program speaks.
 */
export function eraKey(config: ServerConfig): string {
  const launch =
    config.transport === 'stdio' ? { t: 'stdio', command: config.command, args: config.args, cwd: config.cwd ?? '' } : { t: config.transport, url: config.url };
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex').slice(0, 32);
}

/** The first revision of the stateless era (the SDK keeps its own constant to itself). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The SDK's cached-verdict form of what was remembered, or undefined when the server must be asked. */
export function priorOf(verdict: EraVerdict | undefined, now = Date.now()): PriorDiscovery | undefined {
  if (!verdict) return undefined;
  if (verdict.era === 'modern') return verdict.discover ? { kind: 'modern', discover: verdict.discover } : undefined;
  return now - verdict.at < LEGACY_VERDICT_MS ? { kind: 'legacy' } : undefined;
}

/** Verdicts for as long as the process runs (tests, and a front end that keeps no files). */
export class MemoryEras implements EraMemory {
  protected readonly verdicts = new Map<string, EraVerdict>();

  recall(key: string): EraVerdict | undefined {
    return this.verdicts.get(key);
  }

  remember(key: string, verdict: EraVerdict): void {
    this.verdicts.set(key, verdict);
  }

  forget(key: string): void {
    this.verdicts.delete(key);
  }
}

/**
 * Verdicts in one small JSON file, read once and written whole (temp file, then rename) after each change,
 * merged with what is on disk then: the extension, the CLI and the orchestrator share the file, and one
 * must not drop what another learned. A missing or unreadable file is an empty memory: every server is
 * asked once more.
 */
export class FileEras extends MemoryEras {
  constructor(private readonly file: string) {
    super();
    for (const [key, v] of Object.entries(this.read())) this.verdicts.set(key, v);
  }

  override remember(key: string, verdict: EraVerdict): void {
    super.remember(key, verdict);
    this.save(key);
  }

  override forget(key: string): void {
    if (!this.verdicts.has(key)) return;
    super.forget(key);
    this.save(key);
  }

  private read(): Record<string, EraVerdict> {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { version?: number; servers?: Record<string, EraVerdict> };
      if (parsed.version !== 1 || !parsed.servers) return {};
      return Object.fromEntries(Object.entries(parsed.servers).filter(([, v]) => v && (v.era === 'modern' || v.era === 'legacy')));
    } catch {
      return {};
    }
  }

  /** Writes the file with `changed` as this process knows it and every other key as the file has it. */
  private save(changed: string): void {
    const servers = this.read();
    const mine = this.verdicts.get(changed);
    if (mine) servers[changed] = mine;
    else delete servers[changed];
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify({ version: 1, servers }), { mode: 0o600 });
      renameSync(temp, this.file);
    } catch {
      // Remembering is an optimisation: a server whose era cannot be kept is asked again next time.
    }
  }
}
