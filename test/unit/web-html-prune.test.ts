import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PRUNE_LIMITS, pruneHtml } from '../../servers/web/html-prune.js';
import { htmlToMarkdown, renderMarkdown } from '../../servers/web/html-to-markdown.js';

/**
 * The pass that bounds a page's shape before the spec parser sees it: ordinary pages come out
 * converting exactly as before, hostile nesting comes out shallow whatever trick it uses.
 */

// The spec parser turndown uses, to see how deep it really nests what pruneHtml wrote.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package ships no types or ES module
const domino = require('@mixmark-io/domino') as { createDocument(html: string): Document };

const base = new URL('https://site.example/dir/page.html');
const CAP = DEFAULT_PRUNE_LIMITS.maxDepth;

/** Deepest element nesting of the document the spec parser builds (iterative: the input is hostile). */
function parsedDepth(html: string): number {
  const doc = domino.createDocument(html);
  let max = 0;
  const stack: [Element, number][] = [[doc.documentElement, 1]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    max = Math.max(max, depth);
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
  return max;
}

describe('pruneHtml: ordinary pages convert exactly as without it', () => {
  const pages: Record<string, string> = {
    'quirks: a table inside a <p>': '<p>a<table><tr><td>b</td></tr></table>c</p>',
    'no quirks: a table closes the <p>': '<!doctype html><p>a<table><tr><td>b</td></tr></table>c</p>',
    'comments between void elements and text (whitespace)':
      '<div><p>x</p>\n  <script>let a = "</div>";</script>\n  <input type="checkbox">\n  <!-- a comment -->\n  words <!-- another --> follow</div>',
    'scripts, styles, noscript, template, textarea and title in the body':
      '<body><script>if (a < b && c > d) document.write("<p>no</p>")</script><style>p{}</style>' +
      '<noscript><p>no js</p></noscript><template><p>tpl</p></template><textarea><b>raw</b></textarea>' +
      '<title>late title</title><p>after</p></body>',
    'svg and math': '<p>a<svg viewBox="0 0 1 1"><path d="M0"/><style>x{}</style><title>t</title></svg>b<math><mi>x</mi></math>c</p>',
    'unclosed and stray tags': '<p>one<p>two<ul><li>a<li>b</ul><dl><dt>t<dd>d</dl><table><tr><td>1<td>2<tr><td>3</table></p></br></div>end',
    'attributes with entities, quotes, case and duplicates':
      `<A HREF="/a?x=1&amp;y=2" href="/second">one</A> <a href='/q"uote'>two</a> <a href=/bare>three</a> ` +
      '<img alt="a &quot;cat&quot;" src="c.png"><ol start=3><li>three</ol><pre><code class="language-js">let x = 1;</code></pre>',
    'entities in text': '<p>&lt;script&gt; &amp; &nbsp; &#65; &#x42; &amp bare &copy</p>',
    'cdata, processing instructions, bogus comments': '<?xml version="1.0"?><p>a<![CDATA[ b ]]>c<!bogus>d</p>',
    'misnested formatting': '<p><b>1<i>2</b>3</i></p><a href="/1">x<a href="/2">y</a><p><b>bold<p>still bold</b></p>',
    'nested lists, quotes, headings, rules': '<h1>H</h1><blockquote><p>q</p><ul><li>a<ol><li>b</li></ol></li></ul></blockquote><hr><br/><h2>H2</h2>',
  };
  for (const [name, html] of Object.entries(pages)) {
    test(name, () => {
      const pruned = htmlToMarkdown(html, base);
      assert.equal(pruned.flattened, 0);
      assert.deepEqual({ title: pruned.title, markdown: pruned.markdown }, renderMarkdown(html, base));
    });
  }

  test('a page exactly as deep as the cap is left whole', () => {
    const html = `${'<div>'.repeat(CAP - 1)}<p>deep</p>`;
    assert.equal(pruneHtml(html).flattened, 0);
    assert.equal(htmlToMarkdown(html, base).markdown, renderMarkdown(html, base).markdown);
  });
});

describe('pruneHtml: hostile nesting comes out shallow', () => {
  const N = 20_000;
  const shapes: Record<string, string> = {
    'nested <div>s': '<div>'.repeat(N),
    'nested lists': '<ul><li>'.repeat(N),
    'nested tables': '<table><tr><td>'.repeat(N),
    'nested <span>s': '<span>'.repeat(N),
    'nested <b>s': '<b>'.repeat(N),
    'self-closing <div/>s (open in HTML)': '<div/>'.repeat(N),
    // End tags the parser ignores: a pass that obeyed them would think the page shallow.
    '</span> across a <div>': '<span><div></span>'.repeat(N),
    '</li> across a list': '<li><ul></li>'.repeat(N),
    '</div> across a table': '<div><table><td></div>'.repeat(N),
    '</form> leaves its contents open (all of them inside the first form, which the conversion drops)': '<form><div></form>'.repeat(N),
    '</body> closes nothing': '<div></body>'.repeat(N),
    '</b> across a block': '<b><div></b>'.repeat(N),
  };
  for (const [name, shape] of Object.entries(shapes)) {
    test(name, () => {
      const html = `<!doctype html><html><body>${shape}DEEP TEXT</body></html>`;
      const pruned = pruneHtml(html);
      assert.ok(pruned.flattened > 0, 'something was flattened');
      // Implied <tbody>/<tr>, re-opened formatting elements and forms (out of the parser's stack,
      // still in the tree) add to what the pass counted, by a bounded factor.
      const depth = parsedDepth(pruned.html);
      assert.ok(depth <= 3 * CAP, `parsed depth ${depth}`);
      const markdown = htmlToMarkdown(html, base).markdown;
      if (shape.startsWith('<form>')) assert.equal(markdown, '');
      else assert.match(markdown, /DEEP TEXT/);
    });
  }

  test('flattened blocks keep their words apart, flattened chrome stays out', () => {
    const html = `${'<div>'.repeat(CAP + 10)}<p>one</p><p>two</p><nav>NAV<p>inside nav</p></nav><p>three</p>`;
    const { markdown, flattened } = htmlToMarkdown(html, base);
    assert.equal(markdown, 'one two three');
    assert.equal(flattened, 10 + 4 + 1);
  });

  test('structure comes back once the deep part is closed', () => {
    const html = `${'<div>'.repeat(CAP + 5)}deep${'</div>'.repeat(CAP + 5)}<h2>Back</h2><ul><li>item</li></ul>`;
    assert.equal(htmlToMarkdown(html, base).markdown, 'deep\n\n## Back\n\n- item');
  });
});

describe('pruneHtml: attributes', () => {
  test('only the attributes the conversion reads are kept', () => {
    const { html } = pruneHtml('<div id="x" class="y" style="z" onclick="evil()"><a href="/h" title="t" target="_blank">a</a><img src="s" alt="A"></div>');
    assert.equal(html, '<div><a href="/h">a</a><img alt="A"></div>');
  });

  test('100,000 attributes on one element come down to none', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `data-a${i}="v"`).join(' ');
    assert.equal(pruneHtml(`<div ${many}>x</div>`).html, '<div>x</div>');
  });

  test('a value over the limit is dropped, the element and its text kept', () => {
    const long = 'a'.repeat(DEFAULT_PRUNE_LIMITS.maxAttributeChars + 1);
    assert.equal(pruneHtml(`<a href="/${long}">text</a>`).html, '<a>text</a>');
    assert.equal(htmlToMarkdown(`<p><a href="/${long}">text</a></p>`, base).markdown, 'text');
  });

  test("a code element's class is kept only where it names a code block's language", () => {
    assert.equal(pruneHtml('<pre><code class="language-js">x</code></pre>').html, '<pre><code class="language-js">x</code></pre>');
    assert.equal(pruneHtml('<p><code class="c1">x</code></p>').html, '<p><code>x</code></p>');
    assert.equal(htmlToMarkdown('<pre><code class="language-js">let x;</code></pre>', base).markdown, '```js\nlet x;\n```');
  });
});
