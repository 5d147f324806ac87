import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArxivFeed, shortId } from '../../servers/research/atom-feed.js';
import { PaperStore, topicFolder } from '../../servers/research/paper-store.js';
import { arxivEntry, arxivFeed, BILLION_LAUGHS_FEED, XXE_FEED } from '../fakes/upstreams-arxiv.js';

/** arXiv feed parsing, topic folder names and the paper store, without a server. */

describe('arXiv feed', () => {
  test('reads entries into papers', () => {
    const [paper] = parseArxivFeed(arxivFeed([arxivEntry('graphs <&> trees', 0)]));
    assert.deepEqual(paper, {
      id: '2401.01000v1',
      title: 'Paper 1 on graphs <&> trees & friends',
      authors: ['Ada Lovelace'],
      summary: 'We study graphs <&> trees in depth. Finding number 1.',
      pdf_url: 'http://arxiv.org/pdf/2401.01000v1',
      published: '2024-01-01',
    });
  });

  test('numeric-looking titles stay text and old-style ids keep their archive', () => {
    const xml = arxivFeed([
      '<entry><id>http://arxiv.org/abs/hep-th/9901001v2</id><title>1984</title><summary>s</summary><published>1999-01-01T00:00:00Z</published></entry>',
    ]);
    const [paper] = parseArxivFeed(xml);
    assert.equal(paper?.title, '1984');
    assert.equal(paper?.id, 'hep-th/9901001v2');
    assert.equal(paper?.pdf_url, 'https://arxiv.org/pdf/hep-th/9901001v2');
  });

  test('refuses DTDs, whatever their case, and never expands entities', () => {
    assert.throws(() => parseArxivFeed(XXE_FEED), /refuses to parse/);
    assert.throws(() => parseArxivFeed(BILLION_LAUGHS_FEED), /refuses to parse/);
    assert.throws(() => parseArxivFeed('<?xml version="1.0"?><!doctype feed SYSTEM "http://x/evil.dtd"><feed/>'), /refuses to parse/);
    const [paper] = parseArxivFeed(arxivFeed(['<entry><id>http://arxiv.org/abs/1.1v1</id><title>&custom; &#65;</title></entry>']));
    assert.equal(paper?.title, '&custom; A');
  });

  test('reports arXiv query errors and non-feeds', () => {
    const error = arxivFeed([
      '<entry><id>http://arxiv.org/api/errors#incorrect_id_format</id><title>Error</title><summary>incorrect id format</summary></entry>',
    ]);
    assert.throws(() => parseArxivFeed(error), /arXiv refused the query: incorrect id format/);
    assert.throws(() => parseArxivFeed('<html><body>hi</body></html>'), /not an Atom feed/);
    assert.throws(() => parseArxivFeed('<feed><entry>'), /malformed XML/);
    assert.deepEqual(parseArxivFeed(arxivFeed([])), []);
  });

  test('short ids', () => {
    assert.equal(shortId('http://arxiv.org/abs/2401.01234v1'), '2401.01234v1');
    assert.equal(shortId('https://export.arxiv.org/abs/2401.01234'), '2401.01234');
    assert.equal(shortId(' arXiv:2401.01234v2 '), '2401.01234v2');
  });
});

describe('topic folders', () => {
  test('are lowercase, underscored, [a-z0-9_-] only and bounded', () => {
    assert.equal(topicFolder('Quantum Computing'), 'quantum_computing');
    assert.equal(topicFolder('  Über   Graph-Nets!  '), 'uber_graph-nets');
    assert.equal(topicFolder('../../etc/passwd'), 'etcpasswd');
    assert.equal(topicFolder('..\\..\\windows'), 'windows');
    assert.equal(topicFolder('a'.repeat(100)), 'a'.repeat(64));
    assert.equal(topicFolder(`${'a'.repeat(63)} b`), 'a'.repeat(63));
    for (const bad of ['..', '/', '   ', '!!!', '\u0000', '日本語']) assert.throws(() => topicFolder(bad), /no letters or digits/, JSON.stringify(bad));
  });
});

describe('paper store', () => {
  test('concurrent saves on one topic keep every paper', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'paper-store-'));
    try {
      const store = new PaperStore(ws);
      const paper = (id: string) => ({ id, title: id, authors: [], summary: '', pdf_url: '', published: '' });
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.save('Topic', [paper(`p${i}`)])));
      assert.equal(results.filter((r) => r.created).length, 1);
      const saved = JSON.parse(readFileSync(join(ws, '.mcp-agent', 'papers', 'topic', 'papers_info.json'), 'utf8'));
      assert.equal(Object.keys(saved).length, 10);
      assert.deepEqual(await store.topics(), ['topic']);
      assert.equal((await store.find('p3'))?.folder, 'topic');
      assert.equal(await store.find('__proto__'), undefined);
      assert.equal(await store.find('constructor'), undefined);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
