/**
 * Keeps the chat on its newest output until the person scrolls up, and only then.
 *
 * Whether the reader left the bottom is decided by what they did (wheel, keys, touch, dragging the
 * scroll bar), never by a scroll event alone: layout moves the scroll position too (a card that
 * collapses after an approval, a code block highlighted a frame later, an image that loads), and
 * taking those for the reader's choice is how the chat used to stop following and hide the answer.
 * Growth of the content is watched directly, so late layout is followed as well.
 */
const SLACK_PX = 24;
/** How long after a wheel turn or a key press the scroll events it causes may still arrive. */
const INTENT_MS = 600;
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

export class ScrollPin {
  private pinned = true;
  private intentUntil = 0;
  private dragging = false;

  constructor(
    private readonly scroller: HTMLElement,
    content: HTMLElement,
    private readonly onPinned: (pinned: boolean) => void = () => undefined,
  ) {
    const intent = (): void => {
      this.intentUntil = performance.now() + INTENT_MS;
    };
    scroller.addEventListener('wheel', intent, { passive: true });
    scroller.addEventListener('touchmove', intent, { passive: true });
    scroller.addEventListener('keydown', (e) => SCROLL_KEYS.has(e.key) && intent());
    // A press on the scroller itself (not on a message) is on its scroll bar.
    scroller.addEventListener('pointerdown', (e) => (this.dragging = e.target === scroller));
    window.addEventListener('pointerup', () => (this.dragging = false));
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    new ResizeObserver(() => this.follow()).observe(content);
  }

  get isPinned(): boolean {
    return this.pinned;
  }

  private onScroll(): void {
    if (this.atBottom()) this.setPinned(true);
    else if (this.dragging || performance.now() < this.intentUntil) this.setPinned(false);
  }

  private setPinned(pinned: boolean): void {
    if (pinned === this.pinned) return;
    this.pinned = pinned;
    this.onPinned(pinned);
  }

  private atBottom(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= SLACK_PX;
  }

  /** Call after content changed (the observer catches what changes later). */
  follow(): void {
    if (this.pinned) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** The person sent something or asked for the newest: show it, whatever they were reading. */
  jumpToBottom(): void {
    this.setPinned(true);
    this.follow();
  }
}
