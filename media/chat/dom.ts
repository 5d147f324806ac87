/** A tiny element builder: every node the chat shows is built here or by the sanitiser, never from HTML strings. */
export type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string>;
  onClick?: (event: MouseEvent) => void;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  if (props.text !== undefined) el.textContent = props.text;
  if (props.onClick) (el as HTMLElement).addEventListener('click', props.onClick);
  append(el, ...children);
  return el;
}

function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** 16x16 line icons drawn with currentColor, so they follow the theme like codicons do. */
const ICONS = {
  send: 'M2.5 13.5 14 8 2.5 2.5l1.8 5.5-1.8 5.5ZM4.3 8h5.2',
  stop: 'M4 4h8v8H4z',
  copy: 'M5.5 5.5h7v8h-7zM3.5 10.5v-8h7',
  check: 'm3 8.5 3 3 7-7',
  close: 'm4 4 8 8M12 4l-8 8',
  chevron: 'm6 4 4 4-4 4',
  tool: 'M9.8 2.6a3.2 3.2 0 0 0-3.9 4L2.4 10.1a1.2 1.2 0 0 0 0 1.7l1.8 1.8a1.2 1.2 0 0 0 1.7 0l3.5-3.5a3.2 3.2 0 0 0 4-3.9L11.6 8 9.4 7.8 8.8 6.2l1-2Z',
  shield: 'M8 1.8 3 3.6v4c0 3 2.2 5.4 5 6.6 2.8-1.2 5-3.6 5-6.6v-4L8 1.8Z',
  warning: 'M8 2 1.5 13.5h13L8 2ZM8 6.5v3.5M8 11.6v.4',
  error: 'M8 1.8a6.2 6.2 0 1 0 0 12.4A6.2 6.2 0 0 0 8 1.8ZM5.8 5.8l4.4 4.4M10.2 5.8l-4.4 4.4',
  info: 'M8 1.8a6.2 6.2 0 1 0 0 12.4A6.2 6.2 0 0 0 8 1.8ZM8 7v4.5M8 4.6v.4',
  key: 'M10 2.5a3.5 3.5 0 0 0-3.3 4.7L2.5 11.4v2.1h2.1v-1.3h1.3v-1.3h1.3l1.2-1.2A3.5 3.5 0 1 0 10 2.5ZM10.8 5.2v.1',
  file: 'M4 1.5h5l3 3v10H4zM9 1.5v3h3',
  folder: 'M1.5 3.5h4.5l1.5 1.5h7v8.5h-13z',
  image: 'M2 3h12v10H2zM2 11l3.5-3.5 3 3 2-2L14 12M10.5 6.2a.7.7 0 1 0 0 .1',
  selection: 'M3 4.5h10M3 8h10M3 11.5h6',
  sparkle: 'M8 1.5 9.4 6.6 14.5 8 9.4 9.4 8 14.5 6.6 9.4 1.5 8l5.1-1.4L8 1.5Z',
  retry: 'M13 8a5 5 0 1 1-1.5-3.6M11.8 1.8v2.8H9',
  play: 'M5 3.5v9l7-4.5-7-4.5Z',
  edit: 'M10.8 2.7a1.4 1.4 0 0 1 2 2L5.5 12l-2.8.8.8-2.8 7.3-7.3ZM9.6 3.9l2 2',
} as const;

export type IconName = keyof typeof ICONS;

export function icon(name: IconName, extraClass = ''): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', `icon icon-${name}${extraClass ? ` ${extraClass}` : ''}`);
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.appendChild(path);
  return svg;
}
