import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallToolResult, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startUpstreams, type Upstreams } from '../fakes/upstreams.js';
import { type BundledServer, startBundledServer } from './helpers/bundled-server.js';

/** The arXiv research server over real stdio against a fake arXiv API. */

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const resourceText = (r: { contents: ({ text: string } | { blob: string })[] }): string => {
  const first = r.contents[0];
  return first && 'text' in first ? first.text : '';
};

describe('research server', () => {
  let up: Upstreams;
  let workspace: string;
  let research: BundledServer;
  let listChanges = 0;
  let onListChanged: (() => void) | undefined;

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await research.client.callTool({ name, arguments: args })) as CallToolResult;
  const papersDir = (): string => join(workspace, '.mcp-agent', 'papers');
  const readInfo = (folder: string): Record<string, { title: string; authors: string[]; summary: string; pdf_url: string; published: string }> =>
    JSON.parse(readFileSync(join(papersDir(), folder, 'papers_info.json'), 'utf8'));

  before(async () => {
    up = await startUpstreams();
    workspace = mkdtempSync(join(tmpdir(), 'research-'));
    research = await startBundledServer('research', workspace, { ARXIV_API_URL: `${up.origin}/arxiv/query` });
    research.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanges++;
      onListChanged?.();
    });
  });

  after(async () => {
    await research?.close();
    await up?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('offers two tools, the resources and the prompt', async () => {
    const { tools } = await research.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['extract_info', 'search_papers']);
    assert.equal(tools.find((t) => t.name === 'search_papers')?.annotations?.openWorldHint, true);
    const { resourceTemplates } = await research.client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['papers://topics/{topic}', 'papers://{topic}'],
    );
    const { prompts } = await research.client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['generate_search_prompt'],
    );
  });

  test('search_papers saves papers under a sanitised topic folder and lists the change', async () => {
    const changed = new Promise<void>((resolve) => {
      onListChanged = resolve;
    });
    const result = await call('search_papers', { topic: 'Quantum Computing', max_results: 3 });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.match(text, /Found 3 papers on "Quantum Computing", saved in \.mcp-agent\/papers\/quantum_computing\/papers_info\.json/);
    assert.match(text, /- 2401\.01000v1: Paper 1 on Quantum Computing & friends/);
    assert.match(text, /read papers:\/\/topics\/quantum_computing\.$/);
    assert.deepEqual(result.structuredContent?.paper_ids, ['2401.01000v1', '2401.01001v2', '2401.01002v3']);
    await changed;

    const info = readInfo('quantum_computing');
    assert.deepEqual(info['2401.01001v2'], {
      title: 'Paper 2 on Quantum Computing & friends',
      authors: ['Ada Lovelace', 'Alan Turing'],
      summary: 'We study Quantum Computing in depth. Finding number 2.',
      pdf_url: 'http://arxiv.org/pdf/2401.01001v2',
      published: '2024-01-02',
    });
    const request = up.requests.find((r) => r.path.startsWith('/arxiv/query?'));
    assert.match(request?.path ?? '', /search_query=all%3AQuantum\+Computing&start=0&max_results=3&sortBy=relevance/);
  });

  test('a second search on the topic merges with what is saved', async () => {
    const file = join(papersDir(), 'quantum_computing', 'papers_info.json');
    const info = readInfo('quantum_computing');
    info['1999.99999v1'] = { title: 'Kept by hand', authors: [], summary: '', pdf_url: '', published: '1999-01-01' };
    writeFileSync(file, JSON.stringify(info));
    const before = listChanges;
    await call('search_papers', { topic: 'quantum   computing', max_results: 1 });
    const merged = readInfo('quantum_computing');
    assert.deepEqual(Object.keys(merged).sort(), ['1999.99999v1', '2401.01000v1', '2401.01001v2', '2401.01002v3']);
    assert.deepEqual(readdirSync(join(papersDir(), 'quantum_computing')), ['papers_info.json'], 'no temp files left');
    // A list_changed for this call would have been sent before its result; none came.
    assert.equal(listChanges, before);
  });

  test('extract_info finds a saved paper, with or without its version', async () => {
    const exact = await call('extract_info', { paper_id: '2401.01002v3' });
    const info = JSON.parse(textOf(exact));
    assert.equal(info.title, 'Paper 3 on Quantum Computing & friends');
    assert.equal(info.topic, 'quantum_computing');
    const loose = JSON.parse(textOf(await call('extract_info', { paper_id: 'arXiv:2401.01002' })));
    assert.equal(loose.id, '2401.01002v3');
  });

  test('extract_info on an unknown paper says to search first', async () => {
    const result = await call('extract_info', { paper_id: '0000.00000' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /No saved information for paper "0000\.00000"\. Search first: call search_papers/);
  });

  test('resources list the topics, and read them as markdown', async () => {
    const { resources } = await research.client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes('papers://folders'));
    assert.ok(uris.includes('papers://topics/quantum_computing'));

    const folders = await research.client.readResource({ uri: 'papers://folders' });
    const foldersText = resourceText(folders);
    assert.match(foldersText, /^# Research topics/);
    assert.match(foldersText, /- quantum_computing \(papers:\/\/topics\/quantum_computing\)/);

    const topic = await research.client.readResource({ uri: 'papers://topics/quantum_computing' });
    assert.equal(topic.contents[0]?.mimeType, 'text/markdown');
    const topicText = resourceText(topic);
    assert.match(topicText, /^# Papers on quantum computing\n\nTotal papers: 4/);
    assert.match(
      topicText,
      /## Paper 1 on quantum computing & friends\n- \*\*Paper ID\*\*: 2401\.01000v1\n- \*\*Authors\*\*: Ada Lovelace\n- \*\*Published\*\*: 2024-01-01\n- \*\*PDF\*\*: \[http:\/\/arxiv\.org\/pdf\/2401\.01000v1\]/,
    );

    const spelled = await research.client.readResource({ uri: 'papers://topics/Quantum%20Computing' });
    assert.equal(resourceText(spelled), topicText);
    // The seed's short form still reads a topic.
    const short = await research.client.readResource({ uri: 'papers://quantum_computing' });
    assert.equal(resourceText(short), topicText);
    await assert.rejects(research.client.readResource({ uri: 'papers://topics/never_searched' }), /No papers saved on topic "never_searched" yet/);
  });

  test('topics named like the index or like a Windows device keep distinct URIs and are all readable', async () => {
    for (const topic of ['folders', 'topics', 'Folders!', 'CON', 'lpt1']) {
      const result = await call('search_papers', { topic, max_results: 1 });
      assert.equal(result.isError, undefined, textOf(result));
    }
    const listed = (await research.client.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(listed, [...new Set(listed)], 'no URI listed twice');
    assert.ok(existsSync(join(papersDir(), 'con_topic', 'papers_info.json')), 'a device name gets a suffix');
    assert.ok(existsSync(join(papersDir(), 'lpt1_topic', 'papers_info.json')));
    // A folder an older version made under a device name is still listed and readable.
    mkdirSync(join(papersDir(), 'aux'));
    writeFileSync(join(papersDir(), 'aux', 'papers_info.json'), JSON.stringify({ '1234.5678v1': { title: 'Kept from before' } }));

    const { resources } = await research.client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.deepEqual(uris, [...new Set(uris)], 'no URI listed twice');
    for (const folder of ['folders', 'topics', 'con_topic', 'lpt1_topic', 'aux']) assert.ok(uris.includes(`papers://topics/${folder}`), folder);
    for (const resource of resources) {
      const text = resourceText(await research.client.readResource({ uri: resource.uri }));
      if (resource.uri === 'papers://folders') assert.match(text, /^# Research topics/);
      else assert.match(text, new RegExp(`^# Papers on ${resource.name.replace(/_/g, ' ')}\n`), resource.uri);
    }
    assert.match(resourceText(await research.client.readResource({ uri: 'papers://topics/folders' })), /^# Papers on folders\n/);
    assert.match(resourceText(await research.client.readResource({ uri: 'papers://topics/aux' })), /Kept from before/);
  });

  test('generate_search_prompt asks for the papers, their details and a structured summary', async () => {
    const prompt = await research.client.getPrompt({ name: 'generate_search_prompt', arguments: { topic: 'graph neural networks', num_papers: '7' } });
    const message = prompt.messages[0];
    assert.equal(message?.role, 'user');
    const text = message?.content.type === 'text' ? message.content.text : '';
    assert.match(text, /Search for 7 academic papers about 'graph neural networks'/);
    assert.match(text, /search_papers with topic='graph neural networks' and max_results=7/);
    assert.match(text, /extract_info/);
    for (const part of ['Authors', 'Publication date', 'Key findings', 'Methods', 'future directions', 'PDF']) assert.ok(text.includes(part), part);
    const defaulted = await research.client.getPrompt({ name: 'generate_search_prompt', arguments: { topic: 'x' } });
    assert.match(JSON.stringify(defaulted.messages), /Search for 5 academic papers/);
    await assert.rejects(research.client.getPrompt({ name: 'generate_search_prompt', arguments: { topic: 'x', num_papers: 'lots' } }));
  });

  test('feeds with a DTD (XXE, billion laughs) are refused before parsing', async () => {
    for (const topic of ['xxe attack', 'billion laughs']) {
      const result = await call('search_papers', { topic });
      assert.equal(result.isError, true, topic);
      assert.match(textOf(result), /refuses to parse/);
      assert.ok(!textOf(result).includes('root:'), 'no file content leaked');
    }
    assert.ok(!existsSync(join(papersDir(), 'xxe_attack')));
  });

  test('a slow arXiv answer sends progress notifications while the search waits', async () => {
    const messages: string[] = [];
    const result = (await research.client.callTool({ name: 'search_papers', arguments: { topic: 'slow topic' } }, undefined, {
      onprogress: (p) => messages.push(p.message ?? ''),
    })) as CallToolResult;
    assert.equal(result.isError, undefined, textOf(result));
    assert.ok(messages.length >= 1, 'at least one progress notification');
    assert.match(messages[0]!, /search_papers: waiting for the answer \(1 s\)/);
  });

  test('malformed feeds, outages, and empty results are clear', async () => {
    const broken = await call('search_papers', { topic: 'broken feed' });
    assert.equal(broken.isError, true);
    assert.match(textOf(broken), /malformed XML/);
    const down = await call('search_papers', { topic: 'outage' });
    assert.match(textOf(down), /arXiv is having trouble \(HTTP 503\)/);
    const none = await call('search_papers', { topic: 'nothing at all' });
    assert.equal(none.isError, undefined);
    assert.match(textOf(none), /arXiv has no papers matching "nothing at all"/);
    assert.ok(!existsSync(join(papersDir(), 'nothing_at_all')));
  });

  test('hostile topics stay inside the papers folder', async () => {
    const dots = await call('search_papers', { topic: '../../../etc/passwd', max_results: 1 });
    assert.equal(dots.isError, undefined, textOf(dots));
    assert.equal(dots.structuredContent?.topic, 'etcpasswd');
    assert.ok(existsSync(join(papersDir(), 'etcpasswd', 'papers_info.json')));
    const empty = await call('search_papers', { topic: '../..' });
    assert.equal(empty.isError, true);
    assert.match(textOf(empty), /no letters or digits/);
    const long = await call('search_papers', { topic: 'a'.repeat(150), max_results: 1 });
    assert.equal(String(long.structuredContent?.topic).length, 64);
  });

  test('a symlinked .mcp-agent pointing outside the workspace is refused', async () => {
    const other = mkdtempSync(join(tmpdir(), 'research-ws2-'));
    const outside = mkdtempSync(join(tmpdir(), 'research-outside-'));
    symlinkSync(outside, join(other, '.mcp-agent'));
    const second = await startBundledServer('research', other, { ARXIV_API_URL: `${up.origin}/arxiv/query` });
    try {
      const result = (await second.client.callTool({ name: 'search_papers', arguments: { topic: 'symlinks' } })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.match(textOf(result), /resolves outside the workspace/);
      assert.deepEqual(readdirSync(outside), []);
    } finally {
      await second.close();
      rmSync(other, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a corrupt papers file is reported, not overwritten', async () => {
    mkdirSync(join(papersDir(), 'corrupt'), { recursive: true });
    writeFileSync(join(papersDir(), 'corrupt', 'papers_info.json'), '{not json');
    const result = await call('search_papers', { topic: 'corrupt', max_results: 1 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /papers_info\.json is not valid JSON/);
    assert.equal(readFileSync(join(papersDir(), 'corrupt', 'papers_info.json'), 'utf8'), '{not json');
  });

  test('an oversized papers file is refused, its size limit given in binary units', async () => {
    const file = join(papersDir(), 'oversized', 'papers_info.json');
    mkdirSync(join(papersDir(), 'oversized'), { recursive: true });
    writeFileSync(file, '{}');
    truncateSync(file, 21 * 1024 * 1024);
    const result = await call('search_papers', { topic: 'oversized', max_results: 1 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /papers_info\.json is too big to read \(over 20 MiB\)/);
  });
});
