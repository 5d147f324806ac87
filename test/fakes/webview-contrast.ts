/**
 * What the theme tests measure on a chat page: the WCAG contrast of every piece of text the chat draws, from
 * computed colours (not selectors picked by hand, so a new card is measured the day it appears), and anything
 * that makes the page scroll sideways.
 */
import type { Page } from 'playwright-core';

export interface Measured {
  /** A short path to the element, e.g. `div.turn-end > span`. */
  where: string;
  text: string;
  ratio: number;
  fg: string;
  bg: string;
}

/**
 * Every visible element with text of its own, and its contrast against what is behind it: the backgrounds of
 * its ancestors composited over the page's (the side bar colour in the harness), its colour faded by its own
 * and its ancestors' opacity.
 */
export function measureContrast(page: Page): Promise<Measured[]> {
  return page.evaluate(() => {
    // Any CSS colour as 0-255 channels and a 0-1 alpha, read back from a canvas pixel: computed colours come as
    // rgb(), rgba() or, for color-mix(), color(srgb 0-1 ...), and one parser for all of them is the browser's own.
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    ctx.canvas.width = ctx.canvas.height = 1;
    const rgba = (c: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = c;
      ctx.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const lum = ([r = 0, g = 0, b = 0]: number[]): number => {
      const ch = (v: number): number => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const background = (el: Element): number[] => {
      const layers: Array<[number, number, number, number]> = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let out = [255, 255, 255];
      for (const c of layers.reverse()) out = out.map((v, i) => v * (1 - c[3]) + (c[i] ?? 0) * c[3]);
      return out;
    };
    const opacity = (el: Element): number => {
      let o = 1;
      for (let e: Element | null = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
      return o;
    };
    const where = (el: Element): string => {
      const part = (e: Element): string => e.tagName.toLowerCase() + (e.classList.length ? `.${[...e.classList].join('.')}` : '');
      return el.parentElement ? `${part(el.parentElement)} > ${part(el)}` : part(el);
    };
    const results: Array<{ where: string; text: string; ratio: number; fg: string; bg: string }> = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      if (el.closest('.sr-only, script, style, svg')) continue;
      const own = Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      const field = el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement ? el.value.trim() : '';
      const text = own || field;
      if (!text) continue;
      const style = getComputedStyle(el);
      if (el.getClientRects().length === 0 || style.visibility !== 'visible') continue;
      const bg = background(el);
      const c = rgba(style.color);
      const alpha = c[3] * opacity(el);
      const fg = bg.map((v, i) => v * (1 - alpha) + (c[i] ?? 0) * alpha);
      const [a = 0, b = 0] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      results.push({
        where: where(el),
        text: text.slice(0, 40),
        ratio: (a + 0.05) / (b + 0.05),
        fg: fg.map(Math.round).join(','),
        bg: bg.map(Math.round).join(','),
      });
    }
    return results;
  });
}

/** Below 4.5:1, as lines a person can act on. */
export function lowContrast(measured: Measured[], min = 4.5): string[] {
  return measured.filter((m) => m.ratio < min).map((m) => `${m.where} "${m.text}" ${m.ratio.toFixed(2)}:1 (rgb ${m.fg} on ${m.bg})`);
}

/** The page scrolling sideways, and elements sticking out to its right (code and tables scroll inside their own box). */
export function pageOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`page scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of Array.from(document.querySelectorAll('#root *'))) {
      // Inside a box that scrolls by itself (the box itself must still fit).
      if (el.parentElement?.closest('pre, table, .sql-table-wrap') || el.closest('.sr-only')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 0.5) out.push(`${el.tagName}.${el.className} right=${Math.round(r.right)}`);
    }
    return out;
  });
}
