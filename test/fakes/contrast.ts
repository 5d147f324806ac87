// WCAG contrast of the text a page draws, measured from computed colours: each element's colour over
// its own and its ancestors' backgrounds, composited onto the side bar's (what a webview shows through).
import type { Locator } from 'playwright-core';

export interface Measured {
  selector: string;
  text: string;
  ratio: number;
  fg: string;
  bg: string;
}

/** Every element matching each selector under `body` (a page's or a frame's), with its contrast. */
export function measureContrast(body: Locator, selectors: string[]): Promise<Measured[]> {
  return body.evaluate((_, sels: string[]) => {
    // Any CSS colour read back from a canvas pixel: a color-mix() computes to color(srgb 0-1 ...), which a number
    // match misreads, and the browser's own parser reads every form.
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    ctx.canvas.width = ctx.canvas.height = 1;
    const rgba = (c: string): number[] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = c;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const lum = ([r, g, b]: number[]): number => {
      const ch = (v: number): number => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(r!) + 0.7152 * ch(g!) + 0.0722 * ch(b!);
    };
    const background = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3]! > 0) layers.push(c);
        if (c[3]! >= 1) break;
      }
      const hex = getComputedStyle(document.documentElement).getPropertyValue('--vscode-sideBar-background').trim();
      let out = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      for (const c of layers.reverse()) out = out.map((v, i) => v * (1 - c[3]!) + c[i]! * c[3]!);
      return out;
    };
    const results: Measured[] = [];
    for (const selector of sels) {
      for (const el of Array.from(document.querySelectorAll(selector))) {
        const text = (el as HTMLElement).innerText || (el as HTMLInputElement).value || '';
        // An empty text area is still measured: its caret and what will be typed use its colour.
        if (!text.trim() && !(el instanceof HTMLTextAreaElement)) continue;
        const bg = background(el);
        const c = rgba(getComputedStyle(el).color);
        const fg = bg.map((v, i) => v * (1 - c[3]!) + c[i]! * c[3]!);
        const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
        results.push({
          selector,
          text: text.slice(0, 30),
          ratio: (a! + 0.05) / (b! + 0.05),
          fg: fg.map(Math.round).join(','),
          bg: bg.map(Math.round).join(','),
        });
      }
    }
    return results;
  }, selectors);
}

/** The text of each ask card a person reads, for the contrast checks. */
export const ASK_CARD_TEXT = [
  '.ask-title',
  '.ask-title code',
  '.ask-facts code',
  '.ask-host strong',
  '.ask-facts dt',
  '.ask-facts dd',
  '.ask-label',
  '.ask-text',
  '.ask-message-text',
  '.ask-field-label',
  '.ask-field-desc',
  '.ask-field-error',
  '.ask-input',
  '.ask-choice span',
  '.ask-note',
  '.ask-outcome span',
  '.ask-warning span',
  '.ask-secret-tag span',
  '.ask-buttons .btn',
];
