import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { scaled } from '../support/until';
import { LONG_TEXT_LENGTH, longText, startTripwire, startUpstreams, type Upstreams } from '../fakes/upstreams.js';
import { type BundledServer, startBundledServer } from './helpers/bundled-server.js';

/** fetch_url over real stdio against local fakes: conversion, paging, caps, deadline, and the guard. */

/** Resolves with the first `name` event whose argument passes `accept`. */
function eventWhere(emitter: EventEmitter, name: string, accept: (arg: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const listener = (arg: string): void => {
      if (!accept(arg)) return;
      emitter.off(name, listener);
      resolve(arg);
    };
    emitter.on(name, listener);
  });
}

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('web server: fetch_url', () => {
  let up: Upstreams;
  let tripwire: Awaited<ReturnType<typeof startTripwire>>;
  /** Deadline 2.5 s, scaled by the machine factor: what must finish in time does so on a loaded machine too. */
  let web: BundledServer;
  /** Deadline a fixed 2.5 s, for the fetches that never finish: the deadline is what those tests are about. */
  let strict: BundledServer;
  let workspace: string;

  const fetchUrl = async (args: Record<string, unknown>): Promise<CallToolResult> =>
    (await web.client.callTool({ name: 'fetch_url', arguments: args })) as CallToolResult;

  const refused = async (url: string, pattern: RegExp): Promise<void> => {
    const result = await fetchUrl({ url });
    assert.equal(result.isError, true, `${url} should be refused, got: ${textOf(result)}`);
    assert.match(textOf(result), pattern, url);
  };

  before(async () => {
    up = await startUpstreams();
    tripwire = await startTripwire();
    workspace = mkdtempSync(join(tmpdir(), 'web-fetch-'));
    const env = { MCP_AGENT_FETCH_ALLOW: up.hostPort, MCP_AGENT_FETCH_MAX_BYTES: String(100 * 1024) };
    [web, strict] = await Promise.all([
      startBundledServer('web', workspace, { ...env, MCP_AGENT_FETCH_TIMEOUT_MS: String(scaled(2500)) }),
      startBundledServer('web', workspace, { ...env, MCP_AGENT_FETCH_TIMEOUT_MS: '2500' }),
    ]);
  });

  after(async () => {
    await Promise.all([web?.close(), strict?.close()]);
    await up?.close();
    await tripwire?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('lists the four tools with honest annotations', async () => {
    const { tools } = await web.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['fetch_url', 'get_sports_scores', 'get_weather', 'web_search']);
    for (const tool of tools) {
      assert.equal(tool.annotations?.openWorldHint, true, tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    }
  });

  test('HTML becomes markdown: title on top, scripts, styles, nav and footer gone, links absolute', async () => {
    const result = await fetchUrl({ url: `${up.origin}/page` });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.match(text, /^Contents of http:\/\/127\.0\.0\.1:\d+\/page:/);
    assert.match(text, /# Fake & Friendly Page/);
    assert.match(text, /# Main heading/);
    assert.match(text, /Hello \*\*world\*\*/);
    assert.ok(text.includes(`[the docs](${up.origin}/docs/page2)`), text);
    assert.match(text, /- first/);
    assert.match(text, /\[image: a cat\]/);
    for (const gone of ['SCRIPT-CONTENT', 'NAV-CONTENT', 'FOOTER-CONTENT', 'color:red']) assert.ok(!text.includes(gone), gone);
  });

  test('JSON is pretty-printed, text comes as is, gzip is decoded', async () => {
    assert.match(textOf(await fetchUrl({ url: `${up.origin}/data.json` })), /\{\n {2}"name": "fake",\n {2}"items": \[/);
    assert.match(textOf(await fetchUrl({ url: `${up.origin}/plain.txt` })), /just some plain text\nline two/);
    assert.match(textOf(await fetchUrl({ url: `${up.origin}/gzip-page` })), /compressed hello/);
  });

  test('binary content is refused, even when it claims to be text', async () => {
    await refused(`${up.origin}/image.png`, /binary content \(image\/png\)/);
    await refused(`${up.origin}/sneaky-binary`, /binary content/);
  });

  test('long content is paged, and the cut says exactly how to continue', async () => {
    const full = longText();
    const first = await fetchUrl({ url: `${up.origin}/long.txt`, max_length: 20_000 });
    const firstText = textOf(first);
    assert.ok(firstText.includes(full.slice(0, 20_000)));
    assert.ok(!firstText.includes(full.slice(20_000, 20_100)));
    assert.ok(firstText.includes('call fetch_url with start_index=20000 to continue'), firstText.slice(-300));
    assert.equal(first.structuredContent?.nextStartIndex, 20_000);

    const last = await fetchUrl({ url: `${up.origin}/long.txt`, start_index: 40_000, max_length: 20_000 });
    const lastText = textOf(last);
    assert.ok(lastText.includes(full.slice(40_000)));
    assert.ok(!lastText.includes('to continue'));
    assert.equal(last.structuredContent?.totalLength, LONG_TEXT_LENGTH);

    const past = await fetchUrl({ url: `${up.origin}/long.txt`, start_index: 50_000 });
    assert.equal(past.isError, true);
    assert.match(textOf(past), /start_index=50000 is past the end of the content, which is 45000 characters long/);
  });

  test('an endless body stops at the size cap and says it was cut', async () => {
    const closed = eventWhere(up.events, 'closed', (path) => path === '/endless');
    const result = await fetchUrl({ url: `${up.origin}/endless`, max_length: 200_000 });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text.slice(0, 300));
    assert.match(text, /The download stopped at 100 KiB \(the size limit for one fetch\)/);
    assert.equal(result.structuredContent?.downloadTruncated, true);
    await closed;
  });

  test('a gzip bomb is capped after decompression', async () => {
    const result = await fetchUrl({ url: `${up.origin}/gzip-bomb`, max_length: 200_000 });
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent?.totalLength, 100 * 1024);
    assert.equal(result.structuredContent?.downloadTruncated, true);
  });

  test('a server dripping one byte at a time is cut off at the deadline, with progress on the way', async () => {
    const progress: number[] = [];
    const result = (await strict.client.callTool({ name: 'fetch_url', arguments: { url: `${up.origin}/drip` } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /did not finish within 2\.5 s \(the time limit for one fetch\)/);
    assert.ok(progress.length >= 1, 'a progress notification after a second');
    assert.deepEqual(
      [...progress].sort((a, b) => a - b),
      progress,
      'progress only increases',
    );
  });

  test('a server that never sends its status line is cut off at the deadline', async () => {
    const closed = eventWhere(up.events, 'closed', (path) => path === '/silent');
    const result = (await strict.client.callTool({ name: 'fetch_url', arguments: { url: `${up.origin}/silent` } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /did not finish within 2\.5 s \(the time limit for one fetch\)/);
    await closed;
  });

  test('cancelling the call aborts the download', async () => {
    const path = '/drip?for=cancel';
    const arrived = eventWhere(up.events, 'request', (p) => p === path);
    const closed = eventWhere(up.events, 'closed', (p) => p === path);
    const controller = new AbortController();
    const call = web.client.callTool({ name: 'fetch_url', arguments: { url: `${up.origin}${path}` } }, undefined, {
      signal: controller.signal,
    });
    // Cancel once the fake has the request, so the server-side abort is what closes the connection
    // (the deadline is 2.5 s scaled; this happens well before it).
    await arrived;
    controller.abort();
    await assert.rejects(call, /AbortError|abort/i);
    await closed;
  });

  test('HTTP errors are error results with the status', async () => {
    await refused(`${up.origin}/status/404`, /answered HTTP 404 Not Found[\s\S]*Error 404/);
    await refused(`${up.origin}/status/500`, /answered HTTP 500/);
  });

  test('redirects on the allowed host are followed and said so', async () => {
    const result = await fetchUrl({ url: `${up.origin}/redirect?to=/docs/page2` });
    assert.match(textOf(result), /Contents of http:\/\/127\.0\.0\.1:\d+\/docs\/page2 \(redirected from/);
    assert.match(textOf(result), /Second page body/);
    await refused(`${up.origin}/loop`, /too many redirects/);
  });

  test('a redirect to another host is reported, not followed: reaching it takes a new fetch_url call', async () => {
    const port = new URL(up.origin).port;
    const target = `http://localhost:${port}/docs/page2?cross=1`;
    const result = await fetchUrl({ url: `${up.origin}/redirect?to=${encodeURIComponent(target)}` });
    const text = textOf(result);
    assert.equal(result.isError, undefined, text);
    assert.match(text, /^http:\/\/127\.0\.0\.1:\d+\/redirect\?to=\S+ redirected \(HTTP 302\) to http:\/\/localhost:\d+\/docs\/page2\?cross=1, on another host/);
    assert.ok(text.endsWith(`call fetch_url again with the URL ${target}`), text);
    assert.deepEqual(result.structuredContent, { url: `${up.origin}/redirect?to=${encodeURIComponent(target)}`, status: 302, redirectedTo: target });
    assert.doesNotMatch(text, /Second page body/);
    // After same-host hops too; and the other host was never asked for anything.
    const hops = await fetchUrl({ url: `${up.origin}/redirect?to=${encodeURIComponent(`/redirect?to=${encodeURIComponent(target)}`)}` });
    assert.match(textOf(hops), /\(reached from http:\/\/127\.0\.0\.1:\d+\/redirect\?to=\S+\) redirected \(HTTP 302\) to http:\/\/localhost:/);
    assert.equal(up.requests.filter((r) => r.path === '/docs/page2?cross=1').length, 0, 'the redirect target was not requested');
  });

  test('redirects to another loopback port, to metadata or to file: never reach them', async () => {
    // The same host on another port is followed, and refused before connecting.
    await refused(`${up.origin}/redirect?to=http://127.0.0.1:${tripwire.port}/`, /refused to connect to 127\.0\.0\.1: loopback/);
    // Another host is reported; the call that would reach it is refused like any other.
    for (const [to, why] of [
      [`http://localhost:${tripwire.port}/`, /loopback/],
      ['http://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ] as const) {
      const result = await fetchUrl({ url: `${up.origin}/redirect?to=${encodeURIComponent(to)}` });
      assert.equal((result.structuredContent as { redirectedTo?: string } | undefined)?.redirectedTo, to, textOf(result));
      await refused(to, why);
    }
    await refused(`${up.origin}/redirect?to=file:///etc/passwd`, /redirected to file:\/\/\/etc\/passwd, which is refused: file: URLs are refused/);
    assert.equal(tripwire.hits(), 0);
  });

  test('loopback, private, link-local and odd spellings of them are refused', async () => {
    const port = tripwire.port;
    const cases: [string, RegExp][] = [
      [`http://127.0.0.1:${port}/`, /loopback/],
      [`http://localhost:${port}/`, /localhost \((127\.0\.0\.1|::1)\): loopback/],
      [`http://[::1]:${port}/`, /loopback/],
      [`http://2130706433:${port}/`, /127\.0\.0\.1: loopback/],
      [`http://0x7f000001:${port}/`, /127\.0\.0\.1: loopback/],
      [`http://0x7f.1:${port}/`, /127\.0\.0\.1: loopback/],
      [`http://017700000001:${port}/`, /127\.0\.0\.1: loopback/],
      [`http://[::ffff:127.0.0.1]:${port}/`, /IPv4-mapped loopback/],
      [`http://[::ffff:7f00:1]:${port}/`, /IPv4-mapped loopback/],
      [`http://127.0.0.2:${port}/`, /loopback/],
      ['http://169.254.169.254/latest/meta-data/', /cloud metadata/],
      ['http://10.0.0.1/', /10\.0\.0\.1: private/],
      ['http://192.168.1.1/', /private/],
      ['http://172.16.0.1/', /private/],
      ['http://100.64.0.1/', /carrierGradeNat/],
      ['http://0.0.0.0/', /unspecified/],
      ['http://[::]/', /unspecified/],
      ['http://[fd00::1]/', /uniqueLocal/],
      ['http://[fe80::1]/', /linkLocal/],
      ['http://224.0.0.1/', /multicast/],
      ['http://255.255.255.255/', /broadcast/],
      [`https://127.0.0.1:${port}/`, /loopback/],
      ['file:///etc/passwd', /file: URLs are refused; only http:\/\/ and https:\/\/ URLs/],
      ['ftp://x', /ftp: URLs are refused/],
      ['data:text/plain,hello', /data: URLs are refused/],
      ['javascript:alert(1)', /javascript: URLs are refused/],
      ['not a url', /not a valid URL/],
      [`http://user:pw@127.0.0.1:${port}/`, /user name or password/],
    ];
    for (const [url, pattern] of cases) await refused(url, pattern);
    assert.equal(tripwire.hits(), 0, 'nothing reached the tripwire');
  });

  test('the allow list names one host and port, nothing else on that host', async () => {
    const [, port] = up.hostPort.split(':');
    await refused(`http://localhost:${port}/page`, /loopback/);
    await refused(`http://127.0.0.1:${tripwire.port}/page`, /loopback/);
    assert.equal(tripwire.hits(), 0);
  });

  test('the Host header names the URL host, not the resolved address', async () => {
    assert.match(textOf(await fetchUrl({ url: `${up.origin}/host-echo` })), new RegExp(`host=${up.hostPort.replace(/\./g, '\\.')}`));
  });

  test('bad arguments are refused by the schema', async () => {
    const result = await fetchUrl({ url: `${up.origin}/page`, max_length: 0 });
    assert.equal(result.isError, true);
    const negative = await fetchUrl({ url: `${up.origin}/page`, start_index: -1 });
    assert.equal(negative.isError, true);
  });
});
