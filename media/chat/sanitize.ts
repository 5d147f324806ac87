/**
 * The second wall around model and tool output (the first is the CSP): whatever HTML the markdown
 * renderer produced, only inert markup survives. Links keep http/https/mailto/#; every other
 * scheme (javascript:, command:, vscode:, data:, file:) loses its href. No images, iframes, SVG,
 * forms, styles or event handlers survive, so nothing is fetched and nothing runs.
 */
import DOMPurify from 'dompurify';

const ALLOWED_TAGS = [
  'a',
  'p',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'div',
  'input',
  'sup',
  'sub',
  'kbd',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'start', 'align', 'type', 'checked', 'disabled'];

function isSafeHref(href: string): boolean {
  const trimmed = href.trim();
  if (trimmed.startsWith('#')) return true;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:';
  } catch {
    // Relative URLs would resolve against the webview's own origin: nothing useful there.
    return false;
  }
}

const purify = DOMPurify(window);

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href');
    if (href === null || !isSafeHref(href)) {
      node.removeAttribute('href');
    } else {
      node.setAttribute('rel', 'noopener noreferrer');
      if (!node.hasAttribute('title')) node.setAttribute('title', href);
    }
  }
  // Markdown only makes task-list checkboxes; anything else an input could be is dropped.
  if (node.tagName === 'INPUT') {
    if (node.getAttribute('type') !== 'checkbox') node.remove();
    else node.setAttribute('disabled', '');
  }
});

export function sanitizeToFragment(html: string): DocumentFragment {
  return purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    RETURN_DOM_FRAGMENT: true,
  });
}
