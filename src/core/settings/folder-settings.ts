/**
 * What a folder may set. A cloned repository's `.vscode/settings.json` is untrusted input: it must
 * never decide where the person's key or conversation goes, nor make a turn cost more than the
 * person chose. So each setting has one of two rules:
 *   - `person`: only the person's own (user or remote-machine) settings count; a folder's value is ignored.
 *   - `lower`: a folder may lower the person's value (a project that wants shorter turns), never raise it.
 * In an untrusted folder (Restricted Mode) no folder value counts at all.
 */
export type FolderRule = 'person' | 'lower';

/** The levels of `output_config.effort`, cheapest first; '' (the model's default) counts as 'high', the API's default. */
export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type EffortSetting = '' | (typeof EFFORTS)[number];

/** One setting as the editor reports it, by where it was set. */
export interface SettingLayers<T> {
  /** The person's user settings (and a remote machine's). */
  person: T | undefined;
  /** The folder's or workspace file's values, in no particular order. */
  folder: Array<T | undefined>;
  fallback: T;
}

export interface Decided<T> {
  value: T;
  /** Set when a folder's value was not used, saying why (for the log). */
  ignored?: string;
}

/** The value a setting takes under its rule. `rank` orders values by what they cost (higher costs more). */
export function decide<T>(name: string, rule: FolderRule, layers: SettingLayers<T>, trusted: boolean, rank: (v: T) => number): Decided<T> {
  const own = layers.person ?? layers.fallback;
  const folder = layers.folder.filter((v): v is T => v !== undefined);
  if (folder.length === 0) return { value: own };
  const shown = folder.map((v) => JSON.stringify(v)).join(', ');
  if (!trusted) return { value: own, ignored: `${name} = ${shown} in this folder's settings was ignored: the folder is not trusted (Restricted Mode)` };
  if (rule === 'person') return { value: own, ignored: `${name} = ${shown} in this folder's settings was ignored: only your user settings may set it` };
  const lowest = folder.reduce((a, b) => (rank(b) < rank(a) ? b : a));
  if (rank(lowest) <= rank(own)) return { value: lowest };
  return {
    value: own,
    ignored: `${name} = ${shown} in this folder's settings was ignored: a folder may lower it (your value is ${JSON.stringify(own)}), never raise it`,
  };
}

/** Numbers cost more as they grow; anything else is not a usable value and ranks as the most expensive. */
export function numberRank(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : Number.POSITIVE_INFINITY;
}

export function effortRank(v: unknown): number {
  const i = EFFORTS.indexOf((v === '' ? 'high' : v) as (typeof EFFORTS)[number]);
  return i < 0 ? Number.POSITIVE_INFINITY : i;
}
