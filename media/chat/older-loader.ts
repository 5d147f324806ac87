/**
 * Brings the older messages of a saved chat onto the page after its newest ones are shown: a few at a time when
 * the page is idle, and at once when the reader scrolls near the top. Each step is short, so the page answers
 * to input while a long chat opens; what is drawn above the reader's view does not move what they are reading.
 */
/** How long one step may draw for while the reader scrolls (or the browser gives no idle deadline). */
const STEP_MS = 8;
/** At most this long on idle time: the page stays quick to answer a key or a click. */
const IDLE_STEP_MS = 24;
/** Nearer the top than this many screens, the reader is about to need the older messages. */
const NEAR_TOP_SCREENS = 1.5;

type Idle = (cb: (deadline: { timeRemaining(): number }) => void, options?: { timeout: number }) => number;

export class OlderLoader {
  private idle: number | undefined;
  private frame: number | undefined;

  /** `render(more)` draws older parts at the top of `list` while `more()` (at least one); true while some are left. */
  constructor(
    private readonly scroller: HTMLElement,
    private readonly list: HTMLElement,
    private readonly render: (more: () => boolean) => boolean,
    private readonly hasOlder: () => boolean,
  ) {
    scroller.addEventListener('scroll', () => this.nearTop() && this.soon(), { passive: true });
  }

  /** A chat was opened: its older messages follow, on idle time. */
  start(): void {
    this.stop();
    if (!this.hasOlder()) return;
    if (this.nearTop()) this.soon();
    this.whenIdle();
  }

  private stop(): void {
    if (this.idle !== undefined) (window.cancelIdleCallback ?? clearTimeout)(this.idle);
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.idle = this.frame = undefined;
  }

  private nearTop(): boolean {
    return this.hasOlder() && this.scroller.scrollTop < this.scroller.clientHeight * NEAR_TOP_SCREENS;
  }

  /** Before the next frame: the reader is scrolling into them. */
  private soon(): void {
    if (this.frame !== undefined) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = undefined;
      const until = performance.now() + STEP_MS;
      this.step(() => performance.now() < until);
      if (this.nearTop()) this.soon();
    });
  }

  private whenIdle(): void {
    if (this.idle !== undefined) return;
    const idle: Idle = window.requestIdleCallback ?? ((cb) => window.setTimeout(() => cb({ timeRemaining: () => STEP_MS }), 16));
    this.idle = idle(
      (deadline) => {
        this.idle = undefined;
        const until = performance.now() + Math.min(IDLE_STEP_MS, deadline.timeRemaining());
        if (this.step(() => performance.now() < until)) this.whenIdle();
      },
      { timeout: 500 },
    );
  }

  /** Draws a step's worth, keeping the first message that was on the page where it was on the screen. */
  private step(more: () => boolean): boolean {
    if (!this.hasOlder()) return false;
    const anchor = this.list.firstElementChild;
    const before = anchor?.getBoundingClientRect().top ?? 0;
    const left = this.render(more);
    // The browser's own scroll anchoring may have kept it already (then this moves nothing).
    const moved = (anchor?.getBoundingClientRect().top ?? before) - before;
    if (moved !== 0) this.scroller.scrollTop += moved;
    return left;
  }
}
