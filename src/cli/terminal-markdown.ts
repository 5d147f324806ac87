import { Marked, type Tokens } from 'marked';
import { markedTerminal } from 'marked-terminal';

/** marked-terminal's styles, each a chalk function: without colour, each leaves its text as it is. */
const STYLES = [
  'code',
  'blockquote',
  'html',
  'heading',
  'firstHeading',
  'hr',
  'listitem',
  'table',
  'paragraph',
  'strong',
  'em',
  'codespan',
  'del',
  'link',
  'href',
];

/**
 * Markdown as a terminal shows it (marked-terminal: headings, emphasis, lists, tables, code blocks
 * highlighted), with colour only when `color` (a terminal, no NO_COLOR). Links are written out as
 * "text (url)": a terminal hyperlink would hide where a link the model wrote really goes.
 */
export function terminalMarkdown(width: number, color: boolean): (markdown: string) => string {
  // cli-table3 colours a table's head and borders itself unless told not to.
  const plain = color ? {} : { ...Object.fromEntries(STYLES.map((k) => [k, (text: string) => text])), tableOptions: { style: { head: [], border: [] } } };
  const marked = new Marked(markedTerminal({ width, emoji: false, reflowText: false, ...plain }), {
    renderer: {
      link(this: { parser: { parseInline(tokens: Tokens.Link['tokens']): string } }, token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        return text && text !== token.href ? `${text} (${token.href})` : token.href;
      },
      // Its highlighter colours by its own look at the terminal; without colour a block is only indented.
      ...(color ? {} : { code: (token: Tokens.Code) => `${token.text.replace(/^/gm, '    ')}\n\n` }),
    },
  });
  return (markdown) => marked.parse(markdown, { async: false });
}

/**
 * Streamed Markdown, rendered a block at a time: text is held until a blank line outside a code
 * fence ends a block, so a reply still appears paragraph by paragraph as it streams.
 */
export class MarkdownStream {
  private pending = '';

  constructor(private readonly render: (markdown: string) => string) {}

  /** Adds streamed text; returns what complete blocks render to (often nothing yet). */
  write(text: string): string {
    this.pending += text;
    const end = lastBlockEnd(this.pending);
    if (end === 0) return '';
    const done = this.pending.slice(0, end);
    this.pending = this.pending.slice(end);
    return this.render(done);
  }

  /** Renders whatever is held (the reply ended, or something else is about to be printed). */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() ? this.render(rest) : '';
  }
}

/** Where the last complete block ends: just after the last blank line that is outside a ``` or ~~~ fence; 0 when none. */
function lastBlockEnd(text: string): number {
  let fence: string | undefined;
  let end = 0;
  let at = 0;
  for (const line of text.split('\n').slice(0, -1)) {
    at += line.length + 1;
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence === undefined ? marker : undefined;
    else if (fence === undefined && line.trim() === '') end = at;
  }
  return end;
}
