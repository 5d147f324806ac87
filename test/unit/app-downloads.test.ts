// What a view offers through ui/download-file becomes files the person saves: inline text and blobs, its own
// server's resources read there, a single web link opened as a link (asked first), never fetched; names cannot
// climb out of the folder the person picks; a request past the limits is refused whole.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EmbeddedResource, ReadResourceResult, ResourceLink } from '@modelcontextprotocol/client';
import { DOWNLOAD_LIMITS, downloadsOf, fileName } from '../../src/core/apps/app-downloads';

const noRead = async (): Promise<ReadResourceResult> => {
  throw new Error('nothing should be read');
};
const embedded = (uri: string, body: { text: string } | { blob: string }, mimeType?: string): EmbeddedResource => ({
  type: 'resource',
  resource: { uri, ...body, ...(mimeType ? { mimeType } : {}) } as EmbeddedResource['resource'],
});

describe('a view’s downloads', () => {
  test('inline text and a base64 blob are the bytes to save, named from their URI', async () => {
    const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64');
    const got = await downloadsOf(
      [embedded('file:///report%20final.pdf', { blob: pdf }, 'application/pdf'), embedded('ui://notes/a.txt', { text: 'héllo' })],
      noRead,
    );
    assert.ok('files' in got);
    assert.deepEqual(
      got.files.map((f) => [f.name, f.mimeType, Buffer.from(f.data).toString('utf8')]),
      [
        ['report final.pdf', 'application/pdf', '%PDF-1.4 tiny'],
        ['a.txt', undefined, 'héllo'],
      ],
    );
  });

  test("a link to the server's own resource is read there, under the link's name", async () => {
    const asked: string[] = [];
    const read = async (uri: string): Promise<ReadResourceResult> => {
      asked.push(uri);
      return { contents: [{ uri, text: 'a,b\n1,2\n', mimeType: 'text/csv' }] };
    };
    const link: ResourceLink = { type: 'resource_link', uri: 'data://export/42', name: 'budget.csv' };
    const got = await downloadsOf([link], read);
    assert.deepEqual(asked, ['data://export/42']);
    assert.ok('files' in got);
    assert.equal(got.files[0]!.name, 'budget.csv');
    assert.equal(got.files[0]!.mimeType, 'text/csv');
  });

  test('a web link is a link to open (the person is asked), never fetched; mixed with files it is refused', async () => {
    const web: ResourceLink = { type: 'resource_link', uri: 'https://example.com/file.zip', name: 'file.zip' };
    assert.deepEqual(await downloadsOf([web], noRead), { link: 'https://example.com/file.zip' });
    assert.ok('refused' in (await downloadsOf([web, web], noRead)));
    assert.ok('refused' in (await downloadsOf([web, embedded('file:///x.txt', { text: 'x' })], noRead)));
  });

  test('too many files, too many bytes, or nothing at all: refused whole', async () => {
    const many = Array.from({ length: DOWNLOAD_LIMITS.files + 1 }, (_, i) => embedded(`file:///${i}.txt`, { text: 'x' }));
    assert.ok('refused' in (await downloadsOf(many, noRead)));
    const big = Buffer.alloc(DOWNLOAD_LIMITS.bytes / 2 + 1).toString('base64');
    assert.ok('refused' in (await downloadsOf([embedded('file:///a.bin', { blob: big }), embedded('file:///b.bin', { blob: big })], noRead)));
    assert.ok('refused' in (await downloadsOf([], noRead)));
  });

  test('a name cannot name a folder, hide itself or carry control characters', () => {
    assert.equal(fileName('../../.ssh/authorized_keys'), '_.._.ssh_authorized_keys');
    assert.equal(fileName('..\\evil.bat'), '_evil.bat');
    assert.equal(fileName('.bashrc'), 'bashrc');
    assert.equal(fileName('a\u0000b\nc.txt'), 'abc.txt');
    assert.equal(fileName('...'), 'download');
    assert.equal(fileName(''), 'download');
  });
});
