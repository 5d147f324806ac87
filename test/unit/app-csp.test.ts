// A view's Content-Security-Policy is built from what its resource declares (_meta.ui.csp), restrictive by
// default, and a declared domain on this machine or its network is refused: an app cannot declare its way in.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appCsp, cspOrigin } from '../../src/core/apps/app-csp';
import { withCspMeta } from '../../src/core/apps/app-view';

describe("an app view's CSP", () => {
  test('nothing declared: no network, no frames, inline script and style only, never self', () => {
    const { policy, refused } = appCsp(undefined);
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /connect-src 'none'/);
    assert.match(policy, /frame-src 'none'/);
    assert.match(policy, /form-action 'none'/);
    assert.doesNotMatch(policy, /'self'|\*(?!\.)/);
    assert.deepEqual(refused, []);
  });

  test('declared public https/wss origins are taken; loopback, private, local names, paths and quotes are refused', () => {
    const { policy, allowed, refused } = appCsp({
      connectDomains: [
        'https://api.example.com',
        'wss://*.example.org',
        'http://127.0.0.1:8080',
        'https://localhost',
        'https://10.0.0.1',
        'https://printer.local',
        "https://x.com 'unsafe-eval'",
        'https://a.com/path',
      ],
      resourceDomains: ['https://cdn.example.net/'],
      frameDomains: 'https://evil.example',
    });
    assert.deepEqual(allowed.connectDomains, ['https://api.example.com', 'wss://*.example.org']);
    assert.deepEqual(allowed.resourceDomains, ['https://cdn.example.net']);
    assert.match(policy, /connect-src https:\/\/api\.example\.com wss:\/\/\*\.example\.org;/);
    assert.match(policy, /script-src 'unsafe-inline' 'unsafe-eval' data: blob: https:\/\/cdn\.example\.net;/);
    assert.match(policy, /frame-src 'none'/);
    assert.equal(refused.length, 7);
    assert.equal(cspOrigin('https://[::1]'), undefined);
    assert.equal(cspOrigin('https://8.8.8.8'), 'https://8.8.8.8');
  });

  test("the policy goes first in the view's head, before any of its script", () => {
    const html = withCspMeta('<!doctype html><html><head><script>x()</script></head></html>', "default-src 'none'");
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<script>'));
    const bare = withCspMeta('<!doctype html><script>x()</script>', "default-src 'none'");
    assert.ok(bare.indexOf('Content-Security-Policy') < bare.indexOf('<script>'));
  });
});
