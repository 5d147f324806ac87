/** One tool call: header (server · tool, status), collapsible input and result. */
import type { ToolContent } from '../../src/common/protocol';
import { h, icon } from './dom';
import { formatDuration, prettyJson } from './format';
import { isImageMime } from '../../src/common/image-types';

/** `waiting`: asked for approval, not running yet (so it does not spin). `denied`: the person said no; not a failure. */
export type ToolStatus = 'waiting' | 'running' | 'done' | 'error' | 'denied';

export interface ToolCallInfo {
  callId: string;
  server: string;
  tool: string;
  input: unknown;
}

/** Opens an image a tool returned in an editor tab (the host writes it to a file first). */
export type OpenImage = (mimeType: string, data: string) => void;

export class ToolCard {
  readonly el: HTMLElement;
  private readonly images: HTMLElement;
  private readonly status: HTMLElement;
  private readonly statusText: HTMLElement;
  private readonly duration: HTMLElement;
  private readonly body: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly resultSection: HTMLElement;

  constructor(
    call: ToolCallInfo,
    private readonly openImage?: OpenImage,
  ) {
    this.statusText = h('span', { class: 'status-text sr-only' });
    this.duration = h('span', { class: 'duration' });
    this.status = h(
      'span',
      { class: 'status', attrs: { role: 'status' } },
      h('span', { class: 'status-icon', attrs: { 'aria-hidden': 'true' } }),
      this.statusText,
    );
    const bodyId = `tool-body-${cssSafe(call.callId)}`;
    // No server: the model named a tool there is none of; its name is shown as it wrote it.
    const server = call.server || 'unknown tool';
    this.toggle = h(
      'button',
      { class: 'tool-header', attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': bodyId, title: `${server} · ${call.tool}` } },
      icon('chevron', 'chevron'),
      icon('tool', 'tool-icon'),
      // The separator is part of the server's name: it goes when that does (tools.css).
      h(
        'span',
        { class: 'tool-name' },
        h('span', { class: 'tool-server' }, server, h('span', { class: 'sep', text: ' · ' })),
        h('span', { class: 'tool-tool', text: call.tool }),
      ),
      this.duration,
      this.status,
    );
    this.toggle.addEventListener('click', () => this.setExpanded(this.toggle.getAttribute('aria-expanded') !== 'true'));
    this.resultSection = h('div', { class: 'tool-section tool-result' });
    this.body = h('div', { class: 'tool-body', attrs: { id: bodyId } }, inputSection(call.input), this.resultSection);
    this.body.hidden = true;
    this.images = h('div', { class: 'tool-images' });
    this.el = h('div', { class: 'tool-card', attrs: { 'data-call-id': call.callId } }, this.toggle, this.images, this.body);
    this.setStatus('running');
  }

  /** The status text is always the bare word (tests and screen readers rely on it); `note` says more. */
  setStatus(status: ToolStatus, note?: string): void {
    this.el.dataset.status = status;
    this.status.dataset.status = status;
    this.statusText.textContent = status;
    if (note) {
      this.status.title = note;
      this.duration.textContent = note;
    }
  }

  /** What a running tool reports (notifications/progress): a percentage when it knows the total. */
  setProgress(progress: number, total: number | undefined, message: string | undefined): void {
    if (this.el.dataset.status !== 'running') return;
    const amount = total ? `${Math.min(100, Math.round((progress / total) * 100))}%` : '';
    const text = [message, amount].filter(Boolean).join(' · ');
    this.duration.textContent = text.length > 60 ? `${text.slice(0, 59)}…` : text;
    this.status.title = text;
  }

  /** Not finished yet: running, or waiting for the person's approval. */
  get isRunning(): boolean {
    return this.el.dataset.status === 'running' || this.el.dataset.status === 'waiting';
  }

  setResult(isError: boolean, content: ToolContent[], durationMs: number): void {
    this.setStatus(isError ? 'error' : 'done');
    this.duration.textContent = formatDuration(durationMs);
    this.resultSection.replaceChildren(h('div', { class: 'section-label', text: isError ? 'Error' : 'Result' }));
    if (content.length === 0) this.resultSection.append(h('div', { class: 'empty', text: '(no output)' }));
    this.images.replaceChildren();
    for (const item of content) {
      if (item.type !== 'text') this.addImage(item.mimeType, item.data);
      else this.resultSection.append((!isError && sqlTable(item.text)) || resultPre(readable(item.text), isError));
    }
    // Errors are what a person needs to see without clicking.
    if (isError) this.setExpanded(true);
  }

  /**
   * The person denied the call, so it never ran: a decision, not an error. No red, no error block opened by
   * itself; what the model was told instead of a result is there when the card is opened.
   */
  setDenied(content: ToolContent[]): void {
    this.setStatus('denied');
    this.duration.textContent = 'denied';
    const told = content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
    this.resultSection.replaceChildren(h('div', { class: 'section-label', text: 'Not run: denied' }), h('pre', { class: 'tool-pre', text: told }));
  }

  /** A plot is the result a person wants to see: open, full width, and a click opens it in a tab. */
  private addImage(mimeType: string, data: string): void {
    const shown = imageOrNote(mimeType, data);
    if (!(shown instanceof HTMLImageElement)) {
      this.resultSection.append(shown);
      return;
    }
    const button = h('button', { class: 'tool-image-button', attrs: { type: 'button', title: 'Open in an editor tab' } }, shown);
    button.addEventListener('click', () => this.openImage?.(mimeType, data.replace(/\s/g, '')));
    this.images.append(button);
  }

  setExpanded(expanded: boolean): void {
    this.toggle.setAttribute('aria-expanded', String(expanded));
    this.body.hidden = !expanded;
  }
}

/**
 * A result's text, whole: the host cut it once, on the call's path (core/agent/result-caps.ts), to what the chat
 * may hold, so the page does not cut again; a long one scrolls inside its box.
 */
function resultPre(text: string, isError: boolean): HTMLElement {
  return h('pre', { class: `tool-pre${isError ? ' is-error' : ''}`, text });
}

function imageOrNote(mimeType: string, data: string): HTMLElement {
  // Only inline base64 of known raster types: an SVG could carry script, anything else a URL.
  if (isImageMime(mimeType) && /^[A-Za-z0-9+/=\s]*$/.test(data)) {
    return h('img', { class: 'tool-image', attrs: { src: `data:${mimeType};base64,${data.replace(/\s/g, '')}`, alt: 'Tool result image' } });
  }
  return h('div', { class: 'empty', text: `(${mimeType || 'unknown'} content not shown)` });
}

function cssSafe(id: string): string {
  return id.replace(/[^\w-]/g, '_');
}

/** Tools answer compact JSON to save the model's tokens; people read it indented. */
function readable(text: string): string {
  const t = text.trim();
  if (t.length > 200_000 || !/^[[{]/.test(t)) return text;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return text;
  }
}

/**
 * The call's input: multi-line strings (code, file content, SQL) shown as they are, each under its
 * name, and the rest as indented JSON; escaped newlines in JSON are unreadable.
 */
function inputSection(input: unknown): HTMLElement | null {
  const rest: Record<string, unknown> = {};
  const blocks: HTMLElement[] = [];
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    for (const [key, value] of Object.entries(input)) {
      if (typeof value === 'string' && value.includes('\n')) {
        blocks.push(h('div', { class: 'input-field', text: key }), h('pre', { class: 'tool-pre', text: value }));
      } else rest[key] = value;
    }
  }
  const json = prettyJson(blocks.length > 0 ? rest : input);
  const parts = [...(json && json !== '{}' ? [h('pre', { class: 'tool-pre', text: json })] : []), ...blocks];
  if (parts.length === 0) return null;
  return h('div', { class: 'tool-section tool-input' }, h('div', { class: 'section-label', text: 'Input' }), ...parts);
}

/**
 * query_database's rows ({"columns", "row_count", "rows"}, then optional "[…]" note lines) as a
 * table, with the JSON one click away; anything else is not a table (undefined).
 */
function sqlTable(text: string): HTMLElement | undefined {
  const cut = text.indexOf('\n[');
  const json = cut === -1 ? text : text.slice(0, cut);
  if (json.length > 2_000_000 || !json.trimStart().startsWith('{"columns"')) return undefined;
  let data: { columns?: unknown; rows?: unknown; row_count?: unknown };
  try {
    data = JSON.parse(json) as typeof data;
  } catch {
    return undefined;
  }
  const { columns, rows } = data;
  if (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string') || !Array.isArray(rows)) return undefined;
  const cell = (v: unknown): HTMLElement =>
    v === null ? h('td', { class: 'is-null', text: 'NULL' }) : h('td', { text: typeof v === 'object' ? JSON.stringify(v) : String(v) });
  const table = h(
    'table',
    { class: 'sql-table' },
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { text: c })))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...columns.map((c) => cell((r as Record<string, unknown>)?.[c]))))),
  );
  const count = typeof data.row_count === 'number' ? data.row_count : rows.length;
  const note = cut === -1 ? '' : text.slice(cut + 1).trim();
  const showJson = h('button', { class: 'link-button show-json', attrs: { type: 'button' }, text: 'Show JSON' });
  const wrap = h(
    'div',
    { class: 'sql-result' },
    h('div', { class: 'sql-table-wrap' }, table),
    h('div', { class: 'sql-note' }, `${count.toLocaleString()} row${count === 1 ? '' : 's'}${note ? ` · ${note}` : ''} · `, showJson),
  );
  showJson.addEventListener('click', () => wrap.replaceWith(resultPre(readable(json) + (note ? `\n${note}` : ''), false)));
  return wrap;
}
