// What the editor does with resources, minus the editor: a real server that updates a subscribed resource
// 100 times a second through the real hub, re-read through RefreshThrottle (src/vscode/refresh-throttle.ts);
// and resourceView (src/core/mcp/requests/resource-content.ts) on what a real server sends: text, an image, other binary.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { RefreshThrottle } from '../../src/vscode/refresh-throttle';
import { languageOf, resourceView } from '../../src/core/mcp/requests/resource-content';
import { fakeConfig, withHub } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const PULSES = 100;

function textOfRead(hub: McpHub, uri: string): Promise<string> {
  return hub.readResource('res', uri).then((r) => {
    const view = resourceView(r);
    return view.kind === 'text' ? view.text : view.kind;
  });
}

describe('resource documents against a real server', () => {
  test(`${PULSES} updates at 100 a second become a handful of reads, the last of them showing the last version`, T, async (t) => {
    await withHub([fakeConfig('res', 'mcp-resources', `--pulses=${PULSES}`)], { changeDebounceMs: 5 }, async (hub) => {
      await hub.settled();
      const shown: string[] = [];
      let updates = 0;
      let finished: () => void = () => undefined;
      const last = new Promise<void>((resolve) => (finished = resolve));
      const throttle = new RefreshThrottle<string>(async (uri) => {
        const text = await textOfRead(hub, uri);
        shown.push(text);
        if (text === `version ${PULSES}`) finished();
      }, 250);
      hub.on('resourceUpdated', (server, uri) => {
        updates++;
        if (server === 'res') throttle.poke(uri);
      });
      await hub.subscribeResource('res', 'pulse://counter');
      await last;
      throttle.dispose();
      t.diagnostic(`${updates} updates, ${shown.length} reads: ${shown.join(', ')}`);
      assert.equal(updates, PULSES);
      assert.ok(shown.length <= 10, `${shown.length} reads for ${PULSES} updates over about a second`);
      assert.equal(shown.at(-1), `version ${PULSES}`);
    });
  });

  test('a poke while a read runs is one more read after it, and a forgotten key is not read again', async () => {
    const reads: string[] = [];
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    let firstStarted = new Promise<void>((r) => (started = r));
    const throttle = new RefreshThrottle<string>(async (key) => {
      reads.push(key);
      started();
      await new Promise<void>((r) => (release = r));
    }, 0);
    throttle.poke('a');
    await firstStarted;
    throttle.poke('a');
    throttle.poke('a');
    firstStarted = new Promise<void>((r) => (started = r));
    release();
    await firstStarted;
    assert.deepEqual(reads, ['a', 'a']);
    throttle.forget('a');
    release();
    throttle.poke('b');
    await new Promise<void>((r) => (started = r));
    release();
    assert.deepEqual(reads, ['a', 'a', 'b']);
    throttle.dispose();
  });

  test('what the editor shows for text, an image and other binary', T, async () => {
    await withHub([fakeConfig('res', 'mcp-resources')], { changeDebounceMs: 5 }, async (hub) => {
      await hub.settled();
      const notes = resourceView(await hub.readResource('res', 'pulse://notes.md'));
      assert.deepEqual(notes, { kind: 'text', text: '# Notes\n\n- one\n- two\n', language: 'markdown' });
      const pixel = resourceView(await hub.readResource('res', 'pulse://pixel'));
      assert.equal(pixel.kind, 'image');
      assert.equal(pixel.kind === 'image' && pixel.mimeType, 'image/png');
      const archive = resourceView(await hub.readResource('res', 'pulse://archive'));
      assert.equal(archive.kind, 'text');
      assert.match(archive.kind === 'text' ? archive.text : '', /^\[gzip archive \(application\/octet-stream\), 20 bytes: pulse:\/\/archive;/);
      const city = resourceView(await hub.readResource('res', 'pulse://city/Peru/Cusco'));
      assert.equal(city.kind === 'text' && city.text, 'Cusco is in Peru');
    });
  });

  test('a blob that only claims to be an image is described, not opened as one', () => {
    const view = resourceView({ contents: [{ uri: 'x://fake.png', mimeType: 'image/png', blob: Buffer.from('not a png at all').toString('base64') }] });
    assert.equal(view.kind, 'text');
    assert.match(view.kind === 'text' ? view.text : '', /^\[binary data \(image\/png\), 16 bytes: x:\/\/fake\.png;/);
  });

  test('languages from MIME types', () => {
    assert.equal(languageOf('text/markdown; charset=utf-8'), 'markdown');
    assert.equal(languageOf('application/ld+json'), 'json');
    assert.equal(languageOf('application/atom+xml'), 'xml');
    assert.equal(languageOf('application/x-unknown'), undefined);
    assert.equal(languageOf(undefined), undefined);
  });
});
