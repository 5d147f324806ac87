// MCP App views in the real VS Code: from a tool's result to the view's first paint of it, and the chat's frame
// times while scrolling with three live views against the same scroll with their frames swapped for empty boxes.
import { loadDriver } from '../lib/driver.mjs';
import { fmtMs, fmtRatio, median, percentile, ratio } from '../lib/stats.mjs';
import { ensureVscode } from '../../scripts/ensure-vscode.mjs';

const CALLS = 8;
const SCROLL_SECONDS = 4;

export async function benchApps() {
  ensureVscode({ browser: true, codeServer: true });
  const driver = await loadDriver('bench/apps-driver.ts', { external: true });
  const { firstPaintMs, withApps, withoutApps, lastTrace } = await driver.benchApps(CALLS, SCROLL_SECONDS);
  const [first, ...warm] = firstPaintMs;
  const frames = (r) => `${fmtMs(median(r.frames))} / ${fmtMs(percentile(r.frames, 95))} / ${fmtMs(Math.max(...r.frames))}`;
  const rows = [
    ['result → first paint, first view (read while its approval card waited)', fmtMs(first), '-', '-'],
    [`result → first paint, next ${warm.length} views (median / p95)`, `${fmtMs(median(warm))} / ${fmtMs(percentile(warm, 95))}`, '-', '-'],
    [
      'chat frame while scrolling (median / p95 / max)',
      frames(withApps),
      frames(withoutApps),
      fmtRatio(ratio(percentile(withApps.frames, 95), percentile(withoutApps.frames, 95))),
    ],
    ['  frames / long frames (> 50 ms)', `${withApps.frames.length} / ${withApps.long}`, `${withoutApps.frames.length} / ${withoutApps.long}`, '-'],
  ];
  return {
    title: 'MCP App views in the real VS Code (code-server, headless Chromium)',
    header: ['measure', 'with live views', 'baseline (same page, frames swapped for boxes)', 'ratio (p95)'],
    rows,
    notes: [
      'first paint: the page gets the tool result (tool_result event) → the view (server-basic-vanillajs) shows the time, watched every frame in its own document; both ends read performance.timeOrigin + now',
      `the first call waited for the person's approval, and its view (HTML read from its server, proxy started) loaded meanwhile; the next ${CALLS - 1} were allowed "always", so their views load after the result arrives: that is what they measure`,
      `the last view's steps, ms after the page mounted it: ${Object.entries(lastTrace)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
      `three live views: basic, system-monitor polling every second through the approval path, budget-allocator; ${SCROLL_SECONDS} s of scrolling 40 px a frame`,
    ],
    data: { firstPaintMs, withApps, withoutApps, lastTrace },
  };
}
