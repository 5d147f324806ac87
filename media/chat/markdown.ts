/**
 * Markdown for assistant text: marked -> HTML string -> DOMPurify -> DOM fragment, then the code
 * blocks get their header (language, Copy) built as real elements with real listeners, so nothing
 * in model output can fake a button that posts to the host.
 */
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './format';
import { highlightCode } from './highlight';
import { sanitizeToFragment } from './sanitize';
import { h, icon } from './dom';

const marked = new Marked({ gfm: true, breaks: false, async: false });

marked.use({
  renderer: {
    // Raw HTML in model output is shown as text: it is almost always an example, never UI.
    html(token: Tokens.HTML | Tokens.Tag): string {
      const text = escapeHtml(token.text);
      return token.block ? `<p>${text}</p>` : text;
    },
    code(token: Tokens.Code): string {
      const lang =
        (token.lang ?? '')
          .trim()
          .split(/\s+/)[0]
          ?.toLowerCase()
          .replace(/[^\w+#.-]/g, '') ?? '';
      const cls = lang ? ` class="language-${lang}"` : '';
      return `<pre><code${cls}>${highlightCode(token.text.replace(/\n$/, ''), lang)}</code></pre>\n`;
    },
    // Remote images would leak data by their URL alone: show a placeholder, fetch nothing.
    image(token: Tokens.Image): string {
      const alt = token.text || 'image';
      return `<span class="image-placeholder" title="${escapeHtml(token.href)}">[image: ${escapeHtml(alt)}]</span>`;
    },
  },
});

export type CopyHandler = (text: string) => void;

/** What rendered markdown can ask of the host: copy a code block, open a workspace file. */
export interface MarkdownActions {
  onCopy: CopyHandler;
  onOpenFile: (path: string, line: number | undefined) => void;
}

/**
 * `src/app.py`, `notes.md:12` or `./a/b.ts:3:5` in inline code: a relative path with an extension
 * (no spaces, no leading `/` or `..`: the host re-checks it is in the workspace anyway).
 */
const FILE_REF = /^(?:\.\/)?((?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z0-9]{1,10})(?::(\d{1,7})(?::\d{1,7})?)?$/;

export function renderMarkdown(text: string, actions: MarkdownActions): DocumentFragment {
  const html = marked.parse(text, { async: false });
  const fragment = sanitizeToFragment(html);
  for (const code of Array.from(fragment.querySelectorAll('pre > code'))) {
    decorateCodeBlock(code as HTMLElement, actions.onCopy);
  }
  for (const code of Array.from(fragment.querySelectorAll('code'))) {
    if (code.parentElement?.tagName !== 'PRE' && !code.closest('a')) linkFileRef(code as HTMLElement, actions.onOpenFile);
  }
  return fragment;
}

/** Inline code naming a file becomes a real button that opens it (at the line, when given). */
function linkFileRef(code: HTMLElement, open: MarkdownActions['onOpenFile']): void {
  const m = FILE_REF.exec(code.textContent ?? '');
  const path = m?.[1];
  if (!m || !path || path.split('/').some((part) => part === '..')) return;
  const line = m[2] ? Number(m[2]) : undefined;
  const button = h('button', { class: 'file-link', attrs: { type: 'button', title: `Open ${path}${line ? ` at line ${line}` : ''}` } });
  code.replaceWith(button);
  button.append(code);
  button.addEventListener('click', () => open(path, line));
}

function decorateCodeBlock(code: HTMLElement, onCopy: CopyHandler): void {
  const pre = code.parentElement;
  if (!pre?.parentNode) return;
  const lang = /(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? '';
  code.classList.add('hljs');
  const label = h('span', { class: 'copy-label', text: 'Copy' });
  const copy = h('button', { class: 'copy', attrs: { type: 'button', title: 'Copy code', 'aria-label': 'Copy code' } }, icon('copy'), label);
  let timer: ReturnType<typeof setTimeout> | undefined;
  copy.addEventListener('click', () => {
    onCopy(code.textContent ?? '');
    label.textContent = 'Copied';
    copy.classList.add('copied');
    clearTimeout(timer);
    timer = setTimeout(() => {
      label.textContent = 'Copy';
      copy.classList.remove('copied');
    }, 1500);
  });
  const header = h('div', { class: 'code-header' }, h('span', { class: 'code-lang', text: lang || 'text' }), copy);
  const block = h('div', { class: 'code-block' });
  pre.parentNode.replaceChild(block, pre);
  block.append(header, pre);
}
