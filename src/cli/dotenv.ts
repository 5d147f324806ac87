import { realpathSync } from 'node:fs';
import { readSmallFile } from '../node/small-file';
import { join } from 'node:path';
import { parse } from 'dotenv';

/**
 * The only names taken from a .env file. A cloned repository's .env must never be able to point
 * the key somewhere else (ANTHROPIC_BASE_URL) or loosen a limit (MCP_AGENT_*): those come from the
 * real environment alone.
 */
const DOTENV_KEYS = ['ANTHROPIC_API_KEY', 'BRAVE_API_KEY'] as const;
/** Names that look like our settings: when a .env sets them, the person is told they were not used. */
const LOOKS_LIKE_OURS = /^(ANTHROPIC_|CLAUDE_|MCP_AGENT_|BRAVE_)/;
/** A .env is a few lines; anything bigger is not one. */
const MAX_BYTES = 1024 * 1024;

export interface DotenvResult {
  /** A copy of `env` with the keys the .env files supplied. */
  env: NodeJS.ProcessEnv;
  /** What to tell the person: which file gave which key, and what was ignored. */
  notes: string[];
}

/**
 * Fills ANTHROPIC_API_KEY and BRAVE_API_KEY from `.env` in the given folders, in order (the
 * workspace first, then the current folder), when the environment lacks them: the environment wins.
 */
export function keysFromDotenv(folders: string[], env: NodeJS.ProcessEnv): DotenvResult {
  const out: NodeJS.ProcessEnv = { ...env };
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    const path = join(folder, '.env');
    const read = readDotenv(path);
    if (read.kind === 'none') continue;
    if (seen.has(read.real)) continue;
    seen.add(read.real);
    if (read.kind === 'skipped') {
      notes.push(`skipped ${path}: ${read.why}`);
      continue;
    }
    const taken = DOTENV_KEYS.filter((k) => !out[k] && read.values[k]);
    for (const k of taken) out[k] = read.values[k];
    if (taken.length > 0) notes.push(`read ${taken.join(' and ')} from ${path}`);
    const ignored = Object.keys(read.values).filter((k) => LOOKS_LIKE_OURS.test(k) && !(DOTENV_KEYS as readonly string[]).includes(k));
    if (ignored.length > 0) {
      notes.push(`ignored ${ignored.join(', ')} in ${path}: only ${DOTENV_KEYS.join(' and ')} are read from a .env file; set the others in the environment`);
    }
  }
  return { env: out, notes };
}

type Read = { kind: 'none' } | { kind: 'skipped'; real: string; why: string } | { kind: 'read'; real: string; values: Record<string, string> };

function readDotenv(path: string): Read {
  const file = readSmallFile(path, MAX_BYTES);
  if (file.kind === 'missing') return { kind: 'none' };
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // gone since it was read: it is named as given
  }
  switch (file.kind) {
    case 'not-a-file':
      return { kind: 'skipped', real, why: 'not a regular file' };
    case 'too-big':
      return { kind: 'skipped', real, why: 'larger than 1 MiB, so not a .env file' };
    case 'unreadable':
      return { kind: 'skipped', real, why: file.message };
    case 'read':
      return { kind: 'read', real, values: parse(file.bytes) };
  }
}
