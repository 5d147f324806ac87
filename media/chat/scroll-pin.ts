/** Keeps the chat scrolled to the newest output only while the person is already at the bottom. */
const SLACK_PX = 24;

export class ScrollPin {
  private pinned = true;

  constructor(private readonly scroller: HTMLElement) {
    scroller.addEventListener('scroll', () => {
      this.pinned = this.atBottom();
    }, { passive: true });
  }

  private atBottom(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= SLACK_PX;
  }

  /** Call after content changed. */
  follow(): void {
    if (this.pinned) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** The person sent something: show it, whatever they were reading. */
  jumpToBottom(): void {
    this.pinned = true;
    this.follow();
  }
}
