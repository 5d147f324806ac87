/**
 * The button beside a failed or capped turn: Retry (after the wait the API asked for, counted
 * down), Set API Key, or Continue. Only the newest one is live: anything new in the chat retires it.
 */
import type { TurnAction } from '../../src/common/protocol';
import { h, icon, type IconName } from './dom';

const LABELS: Record<TurnAction, { text: string; icon: IconName }> = {
  retry: { text: 'Retry', icon: 'retry' },
  setKey: { text: 'Set API Key', icon: 'key' },
  continue: { text: 'Continue', icon: 'play' },
};

/**
 * `waitS` counts down (live events only: a replayed chat's wait is long over) with the button
 * disabled and saying how long is left.
 */
export function actionButtons(action: TurnAction, waitS: number | undefined, onAction: (action: TurnAction) => void): HTMLElement {
  const label = h('span', { text: LABELS[action].text });
  const button = h('button', { class: 'btn btn-secondary turn-action', attrs: { type: 'button', 'data-action': action } }, icon(LABELS[action].icon), label);
  const box = h('div', { class: 'turn-actions' }, button);
  button.addEventListener('click', () => {
    // One click, one request: the whole row goes as the action starts.
    box.remove();
    onAction(action);
  });
  if (action === 'retry' && waitS !== undefined && waitS > 0) countDown(button, label, waitS);
  return box;
}

function countDown(button: HTMLButtonElement, label: HTMLElement, waitS: number): void {
  let left = Math.ceil(waitS);
  const show = (): void => {
    button.disabled = left > 0;
    label.textContent = left > 0 ? `Retry in ${left} s` : 'Retry';
  };
  show();
  const timer = setInterval(() => {
    left--;
    show();
    if (left <= 0 || !button.isConnected) clearInterval(timer);
  }, 1000);
}

/** Every live action button goes: a new message or turn makes them stale. */
export function retireActions(root: ParentNode): void {
  for (const el of root.querySelectorAll('.turn-actions')) el.remove();
}
