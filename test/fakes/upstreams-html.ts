/**
 * Hostile HTML pages for fetch_url: nesting that made the old converter quadratic (or overflow its
 * stack), a page that is slow to convert however it is handled, control characters, a charset that
 * can't be decoded. Built on first use and kept, since some are megabytes.
 */

/** Nesting depth of the /nested/* pages. */
export const NESTING = { div: 100_000, ul: 50_000, table: 40_000, span: 100_000 } as const;

const builders: Record<string, () => { type: string; body: string }> = {
  '/nested/div': () => html(`${'<div>'.repeat(NESTING.div)}DEEP-DIV-TEXT`),
  '/nested/ul': () => html(`${'<ul><li>'.repeat(NESTING.ul)}DEEP-LIST-TEXT`),
  '/nested/table': () => html(`${'<table><tr><td>'.repeat(NESTING.table)}DEEP-TABLE-TEXT`),
  '/nested/span': () => html(`<p>${'<span>'.repeat(NESTING.span)}DEEP-SPAN-TEXT</p>`),
  // Many attributes on one element, and one huge attribute value.
  '/attributes': () =>
    html(
      `<div ${Array.from({ length: 100_000 }, (_, i) => `data-a${i}="v"`).join(' ')}>MANY-ATTRIBUTES</div>` +
        `<p><a href="/${'a'.repeat(2_000_000)}" title="${'t'.repeat(1_000_000)}">HUGE-HREF</a> <a href="/ok">OK-LINK</a></p>`,
    ),
  // 600,000 paragraphs 120 levels deep: within the nesting cap, so every one is converted, and that
  // takes seconds on any machine (each paragraph costs the depth in the parser and in turndown).
  '/heavy': () => html(`${'<div>'.repeat(120)}${'<p>x</p>'.repeat(600_000)}`),
  '/control-chars': () => ({
    type: 'text/html',
    body:
      '<html><head><title>Title\x1b[31m red\x07 bell\x9b2J</title></head>' +
      '<body><p>Body \x1b]0;owned\x07text and <a href="/x">link\x1b[0m text</a>.</p></body></html>',
  }),
  '/bad-charset': () => ({ type: 'text/html; charset=x-no-such-charset', body: '<p>caf\u00e9 CHARSET-FALLBACK</p>' }),
  '/replacement-charset': () => ({ type: 'text/html; charset=iso-2022-kr', body: '<p>REPLACEMENT-CHARSET</p>' }),
};

function html(body: string): { type: string; body: string } {
  return { type: 'text/html; charset=utf-8', body: `<!doctype html><html><head><title>Hostile</title></head><body>${body}</body></html>` };
}

const built = new Map<string, { type: string; body: string }>();

/** The hostile page at `path`, or undefined when there is none. */
export function hostilePage(path: string): { type: string; body: string } | undefined {
  const build = builders[path];
  if (!build) return undefined;
  let page = built.get(path);
  if (!page) {
    page = build();
    built.set(path, page);
  }
  return page;
}
