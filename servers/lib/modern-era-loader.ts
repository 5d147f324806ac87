import * as z from 'zod';

/**
 * The zod members the v2 server package reads, handed to dist/servers/modern-era.js, which takes zod from the server
 * that loads it instead of carrying a second copy of its own (sharedZod in scripts/esbuild-plugins.mjs; bench/README.md,
 * `eras`). Named one by one, not the namespace: the namespace as a value would keep all of zod in every server bundle,
 * its error messages in every language too. The build reads this list (one `name: z.name,` a line) and fails when the
 * package reads a member it lacks.
 */
const MODERN_ZOD = {
  any: z.any,
  array: z.array,
  boolean: z.boolean,
  coerce: z.coerce,
  discriminatedUnion: z.discriminatedUnion,
  email: z.email,
  enum: z.enum,
  intersection: z.intersection,
  iso: z.iso,
  lazy: z.lazy,
  literal: z.literal,
  looseObject: z.looseObject,
  NEVER: z.NEVER,
  null: z.null,
  number: z.number,
  object: z.object,
  optional: z.optional,
  preprocess: z.preprocess,
  record: z.record,
  safeParse: z.safeParse,
  string: z.string,
  toJSONSchema: z.toJSONSchema,
  union: z.union,
  unknown: z.unknown,
  url: z.url,
  ZodIssueCode: z.ZodIssueCode,
};

let loaded: Promise<typeof import('./modern-era')> | undefined;

/** The bundled servers' 2026-07-28 side, loaded once, with this process's zod handed to it first. */
export function loadModernEra(): Promise<typeof import('./modern-era')> {
  (globalThis as Record<symbol, unknown>)[Symbol.for('mcp-agent.modern-era.zod')] ??= MODERN_ZOD;
  return (loaded ??= import('./modern-era'));
}
