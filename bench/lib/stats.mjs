// Small numeric helpers shared by every section.

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => percentile(values, 50);

/** Times `fn` (async) and returns [milliseconds, its value]. */
export async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

export function fmtMs(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return '-';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(0)} ms`;
  return `${ms.toFixed(1)} ms`;
}

export function fmtUs(us) {
  if (us === undefined || us === null || Number.isNaN(us)) return '-';
  return us >= 10_000 ? fmtMs(us / 1000) : `${us.toFixed(0)} µs`;
}

export function fmtBytes(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return '-';
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(0)} KiB`;
  return `${n} B`;
}

/** ours / baseline, as "0.42x"; below 1 means ours is smaller (faster, lighter). */
export function ratio(ours, baseline) {
  if (typeof ours !== 'number' || typeof baseline !== 'number' || !(baseline > 0) || Number.isNaN(ours)) return undefined;
  return ours / baseline;
}

export const fmtRatio = (r) => (r === undefined ? '-' : `${r < 0.1 ? r.toFixed(3) : r.toFixed(2)}x`);
