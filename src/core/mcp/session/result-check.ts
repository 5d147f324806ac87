import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

/** What an era's wire codec offers to check a result (the SDK's `WireCodec`, which it does not export). */
interface ResultCodec {
  validateResult(
    method: string,
    raw: unknown,
  ): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: 'not-in-era' | 'invalid'; readonly message?: string };
}

/** Per codec (one per era, the SDK's singletons), per method: its result check, or null where the era has none. */
const checks = new WeakMap<ResultCodec, Map<string, StandardSchemaV1 | null>>();

/**
 * The check the SDK makes of a spec method's result in one era (its `codecResultValidator`: the codec's own schema,
 * the same message), made once per era and method; undefined where the era has no result schema for the method, so
 * the SDK says so itself.
 */
export function eraResultCheck(codec: ResultCodec, method: string): StandardSchemaV1 | undefined {
  let byMethod = checks.get(codec);
  if (!byMethod) checks.set(codec, (byMethod = new Map()));
  let check = byMethod.get(method);
  if (check === undefined) {
    const probe = codec.validateResult(method, undefined);
    check = !probe.ok && probe.reason === 'not-in-era' ? null : resultCheck(codec, method);
    byMethod.set(method, check);
  }
  return check ?? undefined;
}

function resultCheck(codec: ResultCodec, method: string): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-agent',
      validate(value) {
        const outcome = codec.validateResult(method, value);
        if (outcome.ok) return { value: outcome.value };
        return { issues: [{ message: outcome.reason === 'invalid' ? (outcome.message ?? 'invalid') : `not-in-era: ${method}` }] };
      },
    },
  };
}

/** Whether the second argument of `request()` is a result schema rather than options (the SDK's own test). */
export function isResultSchema(x: unknown): x is StandardSchemaV1 {
  if (x === null || (typeof x !== 'object' && typeof x !== 'function')) return false;
  return typeof (x as Partial<StandardSchemaV1>)['~standard']?.validate === 'function';
}
