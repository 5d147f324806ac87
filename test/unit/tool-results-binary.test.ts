import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertToolResult } from '../../src/core/agent/tool-results';

const b64 = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

test('binary content reaches the model as the API takes it: a PDF as a document, an image by its bytes, text as text', () => {
  const { forModel, forChat } = convertToolResult({
    content: [
      { type: 'resource', resource: { uri: 'file:///report.pdf', mimeType: 'application/pdf', blob: b64('%PDF-1.4 a report') } },
      { type: 'resource', resource: { uri: 'file:///chart', mimeType: 'application/octet-stream', blob: b64(PNG) } },
      { type: 'resource', resource: { uri: 'file:///notes', mimeType: 'application/octet-stream', blob: b64('plain words') } },
    ],
  });
  assert.deepEqual(forModel[0], {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: b64('%PDF-1.4 a report') },
    title: 'resource file:///report.pdf',
  });
  assert.deepEqual(forModel[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64(PNG) } });
  assert.deepEqual(forModel[2], { type: 'text', text: 'resource file:///notes (application/octet-stream):\nplain words' });
  assert.equal(forChat[0]?.type, 'text');
  assert.equal(forChat[1]?.type, 'image');
});

test('what the model cannot take is left out with a note saying what it was', () => {
  const { forModel } = convertToolResult({
    content: [
      { type: 'audio', mimeType: 'audio/wav', data: b64(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(2044)])) },
      { type: 'resource', resource: { uri: 'file:///a.zip', mimeType: 'application/zip', blob: b64(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0])) } },
      { type: 'image', mimeType: 'image/bmp', data: b64(Buffer.from([0x42, 0x4d, 0, 0, 0, 0])) },
    ],
  });
  const texts = forModel.map((b) => (b.type === 'text' ? b.text : b.type));
  assert.match(texts[0] ?? '', /^\[audio \(audio\/wav, 2(\.0)? KiB\), (unknown )?binary data, left out: the model takes no audio\]$/);
  assert.match(
    texts[1] ?? '',
    /^\[resource file:\/\/\/a\.zip \(application\/zip, 6 bytes\), ZIP archive[^\]]*, left out: the model takes images, PDFs and text only\]$/,
  );
  assert.match(texts[2] ?? '', /^\[an image \(image\/bmp, 6 bytes\), BMP image, left out/);
});
