/**
 * The sign of life under the conversation while a turn runs and nothing else shows it: from Enter to the
 * first token, while the model thinks or writes a tool call, through the API's retries. It says what the turn
 * waits for and for how long ("Waiting for the model… 3 s"), or how long until the next try after a 529. It
 * steps aside while text streams or a card (a running tool, an approval) shows what is happening.
 */
import type { TurnActivity } from '../../src/common/protocol';
import { activityText, workingText } from '../../src/common/activity-text';
import { h, icon } from './dom';

export class WorkingLine {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private activity: TurnActivity | undefined;
  private since = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private busy = false;

  /** `announce`: a retry is said to screen readers once (the counting line itself is not a live region). */
  constructor(private readonly announce: (text: string) => void) {
    this.text = h('span', { class: 'working-text' });
    this.el = h(
      'div',
      { class: 'working' },
      h('span', { class: 'working-spinner', attrs: { 'aria-hidden': 'true' } }),
      icon('warning', 'working-warning'),
      this.text,
    );
    this.el.hidden = true;
  }

  /** A turn started (or a page joined one): "Working…" until it says more; a turn that ended clears it. */
  setBusy(busy: boolean): void {
    if (busy === this.busy) return;
    this.busy = busy;
    this.activity = undefined;
    if (busy) this.start();
    else this.stop();
  }

  /** The turn says what it waits for now. */
  show(activity: TurnActivity): void {
    if (!this.busy) return;
    this.activity = activity;
    if (activity.kind === 'retry') this.announce(activityText(activity, activity.waitMs / 1000));
    this.start();
  }

  /** Something on screen shows the turn at work (streaming text, a tool card, an approval): step aside until the next activity. */
  quiet(): void {
    this.stop();
  }

  private start(): void {
    this.since = performance.now();
    this.el.dataset.kind = this.activity?.kind ?? 'working';
    this.el.hidden = false;
    this.render();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.render(), 1000);
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.el.hidden = true;
  }

  private render(): void {
    const seconds = (performance.now() - this.since) / 1000;
    const a = this.activity;
    this.text.textContent = !a ? workingText(seconds) : a.kind === 'retry' ? activityText(a, a.waitMs / 1000 - seconds) : activityText(a, seconds);
  }
}
