/** arXiv Atom feeds for the fake upstream: well-formed ones, and hostile ones with a DTD. */

export function arxivEntry(topic: string, i: number): string {
  const id = `2401.0${1000 + i}v${i + 1}`;
  return `<entry>
    <id>http://arxiv.org/abs/${id}</id>
    <updated>2024-01-0${i + 2}T10:00:00Z</updated>
    <published>2024-01-0${i + 1}T09:30:00Z</published>
    <title>Paper ${i + 1} on
      ${escape(topic)} &amp; friends</title>
    <summary>  We study ${escape(topic)} in depth.
  Finding number ${i + 1}.  </summary>
    <author><name>Ada Lovelace</name></author>
    ${i === 0 ? '' : '<author><name>Alan Turing</name><arxiv:affiliation>Bletchley</arxiv:affiliation></author>'}
    <link href="http://arxiv.org/abs/${id}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/${id}" rel="related" type="application/pdf"/>
    <arxiv:primary_category term="cs.AI" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function arxivFeed(entries: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query</title>
  <id>http://arxiv.org/api/fake</id>
  <updated>2024-01-10T00:00:00-05:00</updated>
  <opensearch:totalResults>${entries.length}</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
  ${entries.join('\n  ')}
</feed>`;
}

/** Classic XXE: an external entity that would pull /etc/passwd into the title. */
export const XXE_FEED = `<?xml version="1.0"?>
<!DOCTYPE feed [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry><id>http://arxiv.org/abs/6666.66666v1</id><title>&xxe;</title><summary>x</summary>
  <author><name>Mallory</name></author><published>2024-01-01T00:00:00Z</published></entry>
</feed>`;

/** Billion laughs: nested entities that expand to gigabytes. */
export const BILLION_LAUGHS_FEED = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry><id>http://arxiv.org/abs/7777.77777v1</id><title>&lol9;</title><summary>x</summary>
  <author><name>Mallory</name></author><published>2024-01-01T00:00:00Z</published></entry>
</feed>`;
