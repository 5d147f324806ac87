import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchableUrl, safeUrl } from '../../src/core/mcp/transport/http-url';
import { configProblem } from '../../src/core/mcp/config/config-check';

test('safeUrl leaves out user name, password, query values and fragment', () => {
  assert.equal(safeUrl('https://ann:s3cret@example.com:8443/mcp?api_key=abc&x=1&x=2#frag'), 'https://example.com:8443/mcp?api_key=…&x=…');
  assert.equal(safeUrl('http://127.0.0.1:3000/mcp'), 'http://127.0.0.1:3000/mcp');
  assert.equal(safeUrl('not a url'), 'not a url');
  assert.equal(safeUrl(`x${'y'.repeat(200)}`).length, 81);
});

test('fetchableUrl turns URL credentials into Basic authorization, unless the config has its own', () => {
  const { url, headers } = fetchableUrl('https://ann%40home:p%3Ass@example.com/mcp', { 'X-A': '1' });
  assert.equal(url.href, 'https://example.com/mcp');
  assert.equal(headers.Authorization, `Basic ${Buffer.from('ann@home:p:ss').toString('base64')}`);
  assert.equal(headers['X-A'], '1');
  const own = fetchableUrl('https://ann:pw@example.com/mcp', { authorization: 'Bearer t' });
  assert.deepEqual(own.headers, { authorization: 'Bearer t' });
  assert.equal(own.url.username, '');
});

test('configProblem: http configs need an http(s) URL and one-line string headers', () => {
  const http = (extra: Record<string, unknown>) => configProblem({ name: 'h', transport: 'http', url: 'https://example.com/mcp', ...extra } as never);
  assert.equal(http({}), undefined);
  assert.match(http({ url: '' }) ?? '', /no url/);
  assert.match(http({ url: 'example.com/mcp' }) ?? '', /is not a URL/);
  assert.match(http({ url: 'file:///etc/passwd' }) ?? '', /only http: and https:/);
  assert.match(http({ headers: { A: 'x\r\nInjected: y' } }) ?? '', /one line/);
  assert.match(configProblem({ name: 'w', transport: 'websocket' } as never) ?? '', /transport "websocket" is not supported/);
});
