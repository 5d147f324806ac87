/** The transcript's small pieces that keep no state: a listing, a prompt sent, a turn's end, its usage, its checkpoint. */
import type { ChatEvent, TurnUsage } from '../../src/common/protocol';
import { usageDetail, usageLine } from '../../src/common/usage-format';
import { notCoveredNote } from '../../src/common/checkpoint-coverage';
import { h, icon } from './dom';

export type EventOf<K extends ChatEvent['kind']> = Extract<ChatEvent, { kind: K }>;

/**
 * A slash command's answer, a line per entry: what it names (a tool, a URI, a command) in the
 * editor's font, then what it says about it, split at the first run of two spaces the lines use.
 */
export function listingLines(text: string): HTMLElement {
  return h(
    'div',
    { class: 'listing' },
    ...text.split('\n').map((line) => {
      const gap = /\s{2,}/.exec(line);
      const key = gap ? line.slice(0, gap.index) : line;
      const detail = gap ? line.slice(gap.index + gap[0].length) : '';
      return h(
        'div',
        { class: 'listing-line' },
        h('span', { class: 'listing-key', text: key }),
        detail ? h('span', { class: 'listing-detail', text: ` ${detail}` }) : null,
      );
    }),
  );
}

/** An MCP prompt sent as the person's message: its name, then each message under its role. */
export function promptMessages(p: NonNullable<EventOf<'user'>['prompt']>): HTMLElement {
  return h(
    'div',
    { class: 'prompt-sent' },
    h('div', { class: 'prompt-name' }, icon('info'), h('span', { text: `Prompt ${p.server}/${p.name}` })),
    ...p.messages.map((m) =>
      h(
        'div',
        { class: `prompt-message prompt-${m.role}`, attrs: { 'data-role': m.role } },
        h('div', { class: 'prompt-role', text: m.role }),
        h('div', { class: 'user-text', text: m.text }),
      ),
    ),
  );
}

export function turnEndMarker(e: EventOf<'turn_end'>): HTMLElement {
  const el = h('div', { class: 'turn-end', attrs: { 'data-status': e.status } });
  switch (e.status) {
    case 'done':
      break;
    case 'stopped':
      el.append(icon('stop'), h('span', { text: 'Stopped' }));
      break;
    case 'error':
      el.setAttribute('role', 'alert');
      el.append(icon('error'), h('span', { text: e.error || 'Something went wrong.' }));
      break;
    case 'max_iterations':
    case 'max_tokens':
      el.append(icon('info'), h('span', { text: e.error || "Stopped after the maximum number of model calls — send 'continue' to go on." }));
      break;
  }
  return el;
}

/** What the turn's model calls used, in small print under it; the exact counts in its tooltip. */
export function turnUsage(u: TurnUsage): HTMLElement {
  return h('div', { class: 'turn-usage', text: usageLine(u), attrs: { title: `${u.model}\n${usageDetail(u)}` } });
}

export function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

/** A turn that changed files can be undone from its message; what its checkpoint could not keep is said there. */
export function checkpointRows(e: EventOf<'checkpoint'>, onRestore: () => void): HTMLElement[] {
  const rows: HTMLElement[] = [];
  const n = e.files.length;
  if (n > 0) {
    const shown = e.files.slice(0, 5).map(basename).join(', ') + (n > 5 ? `, … (${n} files)` : '');
    const button = h(
      'button',
      { class: 'link-button restore', attrs: { type: 'button', title: e.files.join('\n') } },
      icon('retry'),
      h('span', { text: 'Restore files to before this turn' }),
    );
    button.addEventListener('click', onRestore);
    rows.push(h('div', { class: 'checkpoint' }, button, h('span', { class: 'checkpoint-files', text: `Changed: ${shown}` })));
  }
  if (e.notCovered?.length) {
    rows.push(h('div', { class: 'checkpoint-left' }, icon('warning'), h('span', { text: notCoveredNote(e.notCovered, e.notCoveredCount) })));
  }
  return rows;
}
