/**
 * Collects dirty text blocks and renders each once on the next animation frame. Hidden views get no
 * frames, so a timer backs the frame up: text still lands, just less often. When a render gets
 * expensive (a long answer re-parsed each time), frames are skipped in proportion, so typing and
 * scrolling stay smooth while the text keeps arriving.
 */
import { stats } from './stats';
import type { TextBlock } from './text-block';

const FALLBACK_MS = 250;
/** Renders cheaper than this run every frame. */
const CHEAP_MS = 8;
const MAX_BACKOFF_MS = 400;

export class FrameBatcher {
  private readonly dirty = new Set<TextBlock>();
  private scheduled = false;
  private lastCostMs = 0;

  constructor(private readonly afterFlush: () => void) {}

  mark(block: TextBlock): void {
    this.dirty.add(block);
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.lastCostMs <= CHEAP_MS) this.nextFrame();
    else setTimeout(() => this.nextFrame(), Math.min(this.lastCostMs * 2, MAX_BACKOFF_MS));
  }

  private nextFrame(): void {
    const frame = requestAnimationFrame(() => {
      clearTimeout(timer);
      this.flush();
    });
    const timer = setTimeout(() => {
      cancelAnimationFrame(frame);
      this.flush();
    }, FALLBACK_MS);
  }

  /** Renders now: used before anything that must see the streamed text in the DOM. */
  flush(): void {
    this.scheduled = false;
    if (this.dirty.size === 0) return;
    const started = performance.now();
    stats.frames++;
    for (const block of this.dirty) if (block.isDirty && !block.isFinal) block.render();
    this.dirty.clear();
    this.afterFlush();
    this.lastCostMs = performance.now() - started;
  }

  clear(): void {
    this.dirty.clear();
  }
}
