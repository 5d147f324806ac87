import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlToMarkdown } from '../../servers/web/html-to-markdown.js';
import { type ConvertHtml, mediaTypeOf, pageText as pageTextWith } from '../../servers/web/page-content.js';
import { formatDate, formatScoreboard } from '../../servers/web/sports.js';
import { formatWeather } from '../../servers/web/weather.js';
import { formatSearchResults, plainText } from '../../servers/web/web-search.js';
import { joinUrl } from '../../servers/lib/upstream-api.js';

/** The pure summarisers of the web server: HTML, search results, weather and scoreboards. */

const base = new URL('https://site.example/dir/page.html');

describe('html to markdown', () => {
  test('drops page chrome and keeps the content, title on top', () => {
    const { title, markdown } = htmlToMarkdown(
      '<html><head><title> A  title </title><script>evil()</script></head><body><header>HDR</header><aside>AS</aside>' +
        '<main><h2>Sub</h2><p>Text <em>it</em></p><ol start="3"><li>three</li><li>four</li></ol><pre><code>x = 1</code></pre>' +
        '<form><input value="secret"></form><iframe src="x"></iframe></main></body></html>',
      base,
    );
    assert.equal(title, 'A title');
    assert.equal(markdown, '# A title\n\n## Sub\n\nText _it_\n\n3. three\n4. four\n\n```\nx = 1\n```');
  });

  test('resolves relative links and drops script links', () => {
    const { markdown } = htmlToMarkdown(
      '<a href="../x">rel</a> <a href="javascript:alert(1)">js</a> <a href="#top">top</a> <a href="mailto:a@b.c">mail</a>',
      base,
    );
    assert.equal(markdown, '[rel](https://site.example/x) js [top](https://site.example/dir/page.html#top) [mail](mailto:a@b.c)');
  });
});

describe('page content', () => {
  const url = new URL('http://x.example/');
  // The server converts in a worker thread; the conversion itself is the same function.
  const inProcess: ConvertHtml = async (html, base) => htmlToMarkdown(html, base);
  const pageText = (body: Buffer, type: string | undefined, at: URL, truncated: boolean) => pageTextWith(body, type, at, truncated, inProcess);
  test('parses content types and charsets', () => {
    assert.deepEqual(mediaTypeOf('Text/HTML; charset="ISO-8859-1"'), { type: 'text/html', charset: 'ISO-8859-1' });
    assert.deepEqual(mediaTypeOf(undefined), { type: '', charset: undefined });
  });

  test('decodes the declared charset and sniffs untyped HTML', async () => {
    assert.equal((await pageText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=iso-8859-1', url, false)).text, 'café');
    assert.equal((await pageText(Buffer.from('<!doctype html><p>hi</p>'), undefined, url, false)).kind, 'html');
  });

  test('a cut or invalid JSON body is shown as text rather than failing', async () => {
    assert.deepEqual(await pageText(Buffer.from('{"a":'), 'application/json', url, true), { kind: 'text', text: '{"a":' });
    assert.deepEqual(await pageText(Buffer.from('nope'), 'application/problem+json', url, false), { kind: 'text', text: 'nope' });
    assert.equal((await pageText(Buffer.from('{"a":1}'), 'application/ld+json', url, false)).text, '{\n  "a": 1\n}');
  });

  test('binary types are refused', async () => {
    for (const type of ['application/pdf', 'video/mp4', 'application/octet-stream']) {
      await assert.rejects(pageText(Buffer.from('x'), type, url, false), /binary content/);
    }
  });
});

describe('summaries', () => {
  test('search results strip markup and decode entities', () => {
    assert.equal(plainText('<strong>A</strong> &amp; B &#39;c&#39; &#x1F600; &bogus;'), "A & B 'c' 😀 &bogus;");
    assert.equal(formatSearchResults('q', {}), 'No web results for "q".');
    assert.equal(formatSearchResults('q', { web: { results: [null, { title: 'T', url: 'u' }] } }), 'Web results for "q":\n\n1. T\n   u');
  });

  test('weather tolerates a thin answer and refuses an empty one', () => {
    assert.equal(formatWeather('Atlantis', { weather: [{ date: '2024-01-01' }] }), 'Weather for Atlantis\n\nForecast:\n- 2024-01-01: – °C (– °F)');
    assert.throws(() => formatWeather('Atlantis', {}), /no weather data for "Atlantis"/);
  });

  test('scoreboards survive any shape', () => {
    assert.equal(formatScoreboard('NBA', null), "No NBA events on ESPN's scoreboard right now.");
    assert.equal(formatScoreboard('EPL', { events: [{}] }), 'Premier League scoreboard:\n\n- Unnamed event');
    assert.equal(formatScoreboard('F1', { events: [{ name: 'GP', competitions: [{ competitors: [] }] }] }), 'Formula 1 scoreboard:\n\n- GP');
    assert.equal(formatScoreboard('WTA', { events: [{ name: 'Open', groupings: [{ competitions: [{ competitors: [{}] }] }] }] }), 'WTA scoreboard:\n\n- Open');
    const many = { events: Array.from({ length: 45 }, (_, i) => ({ name: `E${i}` })) };
    assert.match(formatScoreboard('NFL', many), /\(5 more events not shown\)$/);
    assert.equal(formatDate('garbage'), 'garbage');
  });

  test('API paths join onto the base without losing its path', () => {
    assert.equal(joinUrl(new URL('http://h/apis/site/v2/sports/'), 'soccer/eng.1/scoreboard').href, 'http://h/apis/site/v2/sports/soccer/eng.1/scoreboard');
  });
});
