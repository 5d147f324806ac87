import { createHash } from 'node:crypto';

/** A short stable hash of a JSON value (object keys sorted and `_meta` left out, so the same question always hashes the same). */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(stable(value)).digest('base64url').slice(0, 22);
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([k, v]) => v !== undefined && k !== '_meta');
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
