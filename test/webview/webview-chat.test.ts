// The chat webview in headless Chromium: protocol handling, rendering, streaming and the controls.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useChatPages } from '../fakes/webview-pages';
import { finishedTurn, pendingApproval, PNG_1PX, readyState } from '../fakes/webview-conversation';
import { shownText } from '../support/shown-text';

const { openChat, openReady, scrollToTopByWheel } = useChatPages();

describe('chat webview', () => {
  test('posts ready on load and shows the welcome with example prompts', async () => {
    const chat = await openChat();
    assert.deepEqual(await chat.posted(), [{ type: 'ready' }]);
    const { page } = chat;
    assert.equal(await page.locator('.example-chip').count(), 3);
    await page.locator('.example-chip').first().click();
    assert.equal(await page.inputValue('#input'), 'List the files in this workspace');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'input');
  });

  test('replay renders user, assistant, tool, approval and turn_end', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({
      type: 'replay',
      events: [
        ...finishedTurn,
        { kind: 'user', id: 'u2', text: 'write it', attachments: [], at: 2 },
        ...pendingApproval,
        { kind: 'approval', callId: 'c2', decision: 'always' },
        { kind: 'tool_result', callId: 'c2', isError: true, content: [{ type: 'text', text: 'disk full' }], durationMs: 40 },
        { kind: 'turn_end', turnId: 't2', status: 'error', error: 'Model overloaded' },
        { kind: 'notice', level: 'warning', text: 'The web server restarted.' },
      ],
    });
    await page.waitForSelector('.turn-end[data-status="error"]');
    assert.equal(await page.locator('#welcome').isHidden(), true);
    assert.equal(await page.locator('.msg.user').count(), 2);
    assert.match(await shownText(page.locator('.msg.user').first()), /Science Fiction/);
    assert.equal(await shownText(page.locator('.msg.user .attachment-chip').first()), 'data.db');
    assert.equal(await shownText(page.locator('.msg.assistant .markdown table td').first()), 'Dune');
    assert.equal(await page.locator('.tool-card[data-call-id="c1"] .status').getAttribute('data-status'), 'done');
    assert.match(await shownText(page.locator('.tool-card[data-call-id="c1"] .tool-header')), /workspace\s*·\s*query_database[\s\S]*1\.2 s/);
    assert.equal(await page.locator('.tool-card[data-call-id="c2"] .status').getAttribute('data-status'), 'error');
    // Errors open by themselves; the decided approval has no buttons left, even on replay.
    assert.equal(await shownText(page.locator('.tool-card[data-call-id="c2"] .tool-pre.is-error')), 'disk full');
    assert.equal(await page.locator('.approval[data-call-id="c2"] button').count(), 0);
    assert.match(await shownText(page.locator('.approval[data-call-id="c2"] .approval-outcome')), /Always allowed/);
    assert.equal(await shownText(page.locator('.turn-end[data-status="error"]')), 'Model overloaded');
    assert.equal(await shownText(page.locator('.notice[data-level="warning"]')), 'The web server restarted.');

    // A second replay replaces, never duplicates.
    await chat.post({ type: 'replay', events: finishedTurn });
    await page.waitForFunction(() => document.querySelectorAll('.msg.user').length === 1);
    assert.equal(await page.locator('.tool-card').count(), 1);
  });

  test('tool cards: running spinner, expand input, long results whole (the host capped them), images only as raster data', async () => {
    const chat = await openReady();
    const { page } = chat;
    const long = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    await chat.post({
      type: 'event',
      event: { kind: 'tool_call', turnId: 't', callId: 'a', server: 'web', tool: 'fetch_url', input: { url: 'https://example.com' } },
    });
    await chat.post({ type: 'event', event: { kind: 'tool_call', turnId: 't', callId: 'b', server: 'workspace', tool: 'run_code', input: {} } });
    await page.waitForSelector('.tool-card[data-call-id="b"]');
    assert.equal(await page.locator('.tool-card[data-call-id="a"] .status').getAttribute('data-status'), 'running');
    await page.click('.tool-card[data-call-id="a"] .tool-header');
    assert.match(await shownText(page.locator('.tool-card[data-call-id="a"] .tool-input pre')), /"url": "https:\/\/example.com"/);
    await chat.post({ type: 'event', event: { kind: 'tool_result', callId: 'a', isError: false, content: [{ type: 'text', text: long }], durationMs: 250 } });
    await chat.post({
      type: 'event',
      event: {
        kind: 'tool_result',
        callId: 'b',
        isError: false,
        durationMs: 3000,
        content: [
          { type: 'image', mimeType: 'image/png', data: PNG_1PX },
          { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+' },
        ],
      },
    });
    await page.waitForSelector('.tool-card[data-call-id="b"][data-status="done"]');
    // The page draws what the host sent, whole: the host cut it once, on the call's path.
    assert.equal(await shownText(page.locator('.tool-card[data-call-id="a"] .tool-result pre')), long);
    assert.equal(await page.locator('.tool-card[data-call-id="a"] .show-all').count(), 0);
    assert.equal(await shownText(page.locator('.tool-card[data-call-id="a"] .duration')), '250 ms');
    const imgs = await page.locator('.tool-card[data-call-id="b"] img').evaluateAll((els) => els.map((e) => (e as HTMLImageElement).src.slice(0, 22)));
    assert.deepEqual(imgs, ['data:image/png;base64,']);
    assert.match((await page.locator('.tool-card[data-call-id="b"]').textContent()) ?? '', /image\/svg\+xml content not shown/);
  });

  test('multi-line input strings (code, content) show as they are, the rest as JSON', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({
      type: 'event',
      event: {
        kind: 'tool_call',
        turnId: 't',
        callId: 'c',
        server: 'workspace',
        tool: 'run_code',
        input: { code: 'import os\nprint(os.getcwd())', timeout_s: 5 },
      },
    });
    await page.click('.tool-card[data-call-id="c"] .tool-header');
    const pres = await page.locator('.tool-card[data-call-id="c"] .tool-input pre').allInnerTexts();
    assert.equal(pres.length, 2);
    assert.match(pres[0]!, /"timeout_s": 5/);
    assert.equal(pres[1], 'import os\nprint(os.getcwd())');
    assert.equal(await shownText(page.locator('.tool-card[data-call-id="c"] .input-field')), 'code');
  });

  test('a running tool card shows its progress until the result arrives', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'event', event: { kind: 'tool_call', turnId: 't', callId: 'p', server: 'workspace', tool: 'run_code', input: {} } });
    await chat.post({ type: 'progress', callId: 'p', progress: 1, total: 4, message: 'running for 1 s' });
    await page.waitForFunction(() => document.querySelector('.tool-card[data-call-id="p"] .duration')?.textContent === 'running for 1 s · 25%');
    await chat.post({ type: 'event', event: { kind: 'tool_result', callId: 'p', isError: false, content: [{ type: 'text', text: 'ok' }], durationMs: 1200 } });
    await chat.post({ type: 'progress', callId: 'p', progress: 2, total: 4, message: 'late' });
    await page.waitForSelector('.tool-card[data-call-id="p"][data-status="done"]');
    assert.equal(await shownText(page.locator('.tool-card[data-call-id="p"] .duration')), '1.2 s');
  });

  test('streaming: 4,000 deltas in 2 s render in batches and end with the right text; the final text replaces it', async () => {
    const chat = await openReady();
    const { page } = chat;
    const words = Array.from({ length: 4000 }, (_, i) => `w${i}`);
    // 200 bursts of 20 deltas, one burst every 10 ms: 2,000 deltas/s.
    await page.evaluate(async (all) => {
      for (let burst = 0; burst < 200; burst++) {
        for (let i = 0; i < 20; i++) {
          window.postMessage({ type: 'delta', turnId: 't1', blockId: 'b1', text: `${all[burst * 20 + i]} ` }, '*');
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    }, words);
    const expected = words.join(' ');
    await page.waitForFunction((text) => document.querySelector('.msg.assistant .markdown')?.textContent?.trim() === text, expected);
    const stats = await chat.stats();
    assert.equal(stats.deltas, 4000);
    assert.ok(stats.markdownRenders < stats.deltas / 4, `renders ${stats.markdownRenders} should be far below deltas ${stats.deltas}`);
    assert.equal(await page.locator('.msg.assistant .markdown.streaming').count(), 1);

    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't1', blockId: 'b1', text: 'Final **answer**' } });
    await page.waitForFunction(() => document.querySelector('.msg.assistant .markdown')?.textContent?.trim() === 'Final answer');
    assert.equal(await shownText(page.locator('.msg.assistant .markdown strong')), 'answer');
    assert.equal(await page.locator('.markdown.streaming').count(), 0);
    // A late delta cannot undo the final text.
    await chat.post({ type: 'delta', turnId: 't1', blockId: 'b1', text: ' late' });
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't1', status: 'done' } });
    await page.waitForSelector('.turn-end[data-status="done"]', { state: 'attached' });
    assert.equal((await page.locator('.msg.assistant .markdown').textContent())?.trim(), 'Final answer');
  });

  test('a long answer with a big code block streams completely', async () => {
    const chat = await openReady();
    const { page } = chat;
    const lines = Array.from({ length: 3000 }, (_, i) => `const v${i} = ${i}; // line ${i}`);
    const text = `Intro\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n\nDone.`;
    const pieces = text.match(/[\s\S]{1,160}/g) ?? [];
    await page.evaluate((all) => {
      for (const piece of all) window.postMessage({ type: 'delta', turnId: 't', blockId: 'b', text: piece }, '*');
    }, pieces);
    await page.waitForFunction(() => document.querySelector('.markdown p:last-child')?.textContent === 'Done.');
    assert.equal(await page.locator('.markdown .code-block code').textContent(), lines.join('\n'));
    const stats = await chat.stats();
    assert.ok(stats.markdownRenders < pieces.length, `renders ${stats.markdownRenders} < deltas ${pieces.length}`);
  });

  test('the input grows with its text up to 40% of the view, under the CSP', async () => {
    const chat = await openChat({ height: 500 });
    const { page } = chat;
    const height = () => page.evaluate(() => document.getElementById('input')!.getBoundingClientRect().height);
    const one = await height();
    await page.fill('#input', 'a\nb\nc\nd');
    const four = await height();
    assert.ok(four > one * 2, `grew from ${one} to ${four}`);
    await page.fill('#input', Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'));
    assert.ok((await height()) <= 500 * 0.4 + 1);
    assert.deepEqual(await chat.cspViolations(), []);
  });

  test('the draft is kept in the webview state', async () => {
    const chat = await openReady();
    await chat.page.fill('#input', 'half-written thought');
    await chat.page.waitForFunction(() => (window as unknown as { __state?: { draft?: string } }).__state?.draft === 'half-written thought');
  });

  test('a prompt offered for review lands after the draft, is kept in the state, and nothing is sent', async () => {
    const chat = await openReady();
    await chat.page.fill('#input', 'my own words');
    await chat.post({ type: 'fill', text: 'Summarize the tides.' });
    await chat.page.waitForFunction(() => (window as unknown as { __state?: { draft?: string } }).__state?.draft === 'my own words\n\nSummarize the tides.');
    assert.equal(await chat.page.evaluate(() => document.activeElement?.id), 'input');
    assert.equal(
      (await chat.posted()).some((m) => m.type === 'request' && m.method === 'send'),
      false,
    );
  });

  test('scroll stays pinned to the bottom only while the reader is at the bottom', async () => {
    const chat = await openChat({ height: 400 });
    const { page } = chat;
    const para = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't', blockId: 'a', text: para } });
    const atBottom = () =>
      page.evaluate(() => {
        const s = document.getElementById('scroller')!;
        return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
      });
    await page.waitForFunction(() => document.getElementById('scroller')!.scrollTop > 0);
    assert.equal(await atBottom(), true);
    await scrollToTopByWheel(page);
    await chat.post({ type: 'delta', turnId: 't', blockId: 'b', text: para });
    await page.waitForFunction(
      () => document.querySelectorAll('.markdown').length === 2 && document.querySelectorAll('.markdown')[1]?.textContent?.includes('Paragraph 39') === true,
    );
    assert.equal(await page.evaluate(() => document.getElementById('scroller')!.scrollTop), 0);
  });

  test('approval buttons post the decision once; the approval event settles the card', async () => {
    const chat = await openReady();
    const { page } = chat;
    for (const event of pendingApproval) await chat.post({ type: 'event', event });
    await page.waitForSelector('.approval[data-call-id="c2"] button[data-decision="always"]');
    assert.match(await shownText(page.locator('.approval[data-call-id="c2"] .approval-preview')), /Neuromancer/);
    assert.deepEqual(await page.locator('.approval[data-call-id="c2"] button').allInnerTexts(), ['Allow once', 'Always allow in this workspace', 'Deny']);
    await page.click('.approval[data-call-id="c2"] button[data-decision="always"]');
    assert.deepEqual(await chat.waitForPosted('approve'), [{ type: 'approve', callId: 'c2', decision: 'always' }]);
    assert.equal(await page.locator('.approval[data-call-id="c2"] button[data-decision="once"]').isDisabled(), true);
    await chat.post({ type: 'event', event: { kind: 'approval', callId: 'c2', decision: 'always' } });
    await page.waitForSelector('.approval[data-call-id="c2"][data-state="always"]');
    assert.equal(await page.locator('.approval[data-call-id="c2"] button').count(), 0);

    for (const decision of ['once', 'deny'] as const) {
      const callId = `d-${decision}`;
      await chat.post({ type: 'event', event: { kind: 'approval_request', callId, server: 'workspace', tool: 'run_code', reason: 'Runs Python' } });
      await page.click(`.approval[data-call-id="${callId}"] button[data-decision="${decision}"]`);
    }
    const approvals = await chat.waitForPosted('approve', 3);
    assert.deepEqual(approvals.slice(1), [
      { type: 'approve', callId: 'd-once', decision: 'once' },
      { type: 'approve', callId: 'd-deny', decision: 'deny' },
    ]);
  });

  test('run_code: warnings and sandbox line shown; "always" is its own confirmed step, usable from the keyboard', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await chat.post({
      type: 'event',
      event: {
        kind: 'approval_request',
        callId: 'rc',
        server: 'workspace',
        tool: 'run_code',
        reason: 'Run Python code in the workspace folder',
        preview: 'print(1)',
        alwaysKind: 'code',
        notes: ['Sandboxed (bubblewrap), network off.'],
        warnings: [
          'No OS sandbox: this code runs with your access to your files and network.',
          'Code can change any file in this workspace, including .vscode and .git.',
        ],
      },
    });
    const card = page.locator('.approval[data-call-id="rc"]');
    await card.locator('button[data-decision="once"]').waitFor();
    assert.deepEqual(await card.locator('.approval-warning').allInnerTexts(), [
      'No OS sandbox: this code runs with your access to your files and network.',
      'Code can change any file in this workspace, including .vscode and .git.',
    ]);
    assert.equal(await shownText(card.locator('.approval-note')), 'Sandboxed (bubblewrap), network off.');
    // No one-click "always" beside Allow once: the same button as other tools must not exist here.
    assert.deepEqual(await card.locator('.approval-buttons button:visible').allInnerTexts(), ['Allow once', 'Deny']);
    assert.equal(await card.locator('button[data-decision="always"]').isVisible(), false);
    const open = card.locator('.approval-always-code');
    assert.equal(await shownText(open), 'Always run code without asking…');
    assert.equal(await open.getAttribute('aria-expanded'), 'false');

    await open.focus();
    await page.keyboard.press('Enter');
    const confirm = card.locator('.approval-confirm button[data-decision="always"]');
    await confirm.waitFor();
    assert.equal(await open.getAttribute('aria-expanded'), 'true');
    assert.match(
      await shownText(card.locator('.approval-confirm')),
      /Always run code in this workspace without asking\? It can change any file here, including \.vscode and \.git/,
    );
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-decision')), 'always', 'focus moved to the confirm button');
    // Escape closes the question and gives focus back; it does not stop the running turn.
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('approval-always-code')), true);
    assert.equal(
      (await chat.posted()).some((m) => m.type === 'stop' || m.type === 'approve'),
      false,
    );

    await page.keyboard.press('Space');
    await confirm.waitFor();
    await page.keyboard.press('Enter');
    assert.deepEqual(await chat.waitForPosted('approve'), [{ type: 'approve', callId: 'rc', decision: 'always' }]);
    assert.equal(await card.locator('button[data-decision="once"]').isDisabled(), true);
    await chat.post({ type: 'event', event: { kind: 'approval', callId: 'rc', decision: 'always' } });
    await page.waitForSelector('.approval[data-call-id="rc"][data-state="always"]');
    assert.equal(await shownText(card.locator('.approval-outcome')), 'Code runs without asking in this workspace');
  });

  test('a file that always asks offers no "always" at all', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({
      type: 'event',
      event: {
        kind: 'approval_request',
        callId: 'g',
        server: 'workspace',
        tool: 'write_file',
        reason: 'Write .git/config in the workspace',
        alwaysKind: 'none',
        warnings: ['.git/config can make the editor, git or an MCP host run commands.'],
      },
    });
    const card = page.locator('.approval[data-call-id="g"]');
    await card.locator('button[data-decision="once"]').waitFor();
    assert.deepEqual(await card.locator('button').allInnerTexts(), ['Allow once', 'Deny']);
    assert.equal(await card.locator('.approval-always-code').count(), 0);
  });

  test('Enter sends with attachments, Shift+Enter adds a newline, chips can be removed', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'attach', path: 'src/a.ts', label: 'a.ts' });
    await chat.post({ type: 'attach', path: 'src/b.ts', label: 'b.ts' });
    await chat.post({ type: 'attach', path: 'src/a.ts', label: 'a.ts' });
    await chat.post({ type: 'focus' });
    await page.waitForFunction(() => document.querySelectorAll('.composer .attachment-chip').length === 2 && document.activeElement?.id === 'input');
    await page.click('.composer .attachment-chip[data-path="src/b.ts"] .chip-remove');
    assert.equal(await page.locator('#send').isDisabled(), true);
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await page.keyboard.press('Enter');
    assert.deepEqual(
      (await chat.waitForSent()).map((s) => s.message),
      [{ text: 'first line\nsecond line', attachments: ['src/a.ts'], images: [] }],
    );
    assert.equal(await page.inputValue('#input'), '');
    assert.equal(await page.locator('.composer .attachment-chip').count(), 0);
    // Whitespace alone is not a message.
    await page.keyboard.type('   ');
    await page.keyboard.press('Enter');
    await page.click('#send', { force: true });
    assert.equal((await chat.waitForSent()).length, 1);
  });

  test('busy: Stop is shown and posts stop, Escape stops too; Enter queues the message for after the turn', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await page.waitForSelector('#stop', { state: 'visible' });
    assert.equal(await page.locator('#send').isVisible(), false);
    await page.fill('#input', 'queued question');
    await page.press('#input', 'Enter');
    await page.click('#stop');
    await page.press('#input', 'Escape');
    assert.equal((await chat.waitForPosted('stop', 2)).length, 2);
    assert.equal(
      (await chat.posted()).some((m) => m.type === 'request' && m.method === 'send'),
      false,
      'nothing is sent while the turn runs',
    );
    assert.deepEqual(await page.locator('.queued .queued-text').allTextContents(), ['queued question']);
    await chat.post({ type: 'state', state: readyState });
    await page.waitForSelector('#stop', { state: 'hidden' });
    const [sent] = await chat.waitForSent();
    assert.equal(sent?.message.text, 'queued question', 'the queued message goes once the turn has ended');
    await page.fill('#input', 'next');
    assert.equal(await page.locator('#send').isEnabled(), true);
  });

  test('state: no key shows the call to action, Restricted Mode and server problems are explained', async () => {
    const chat = await openChat();
    const { page } = chat;
    await chat.post({ type: 'state', state: { ...readyState, hasKey: false, trusted: false, serverProblems: ['web: failed to start'] } });
    await page.waitForSelector('.cta-set-key');
    assert.match(await shownText(page.locator('.cta-card')), /Set your Anthropic API key to start[\s\S]*ANTHROPIC_API_KEY/);
    assert.match(await shownText(page.locator('.banner-restricted')), /Restricted Mode/);
    assert.match(await shownText(page.locator('.server-problems')), /web: failed to start/);
    await page.click('.cta-set-key');
    assert.deepEqual(await chat.waitForPosted('setApiKey'), [{ type: 'setApiKey' }]);
    await chat.post({ type: 'state', state: readyState });
    await page.waitForSelector('.cta-set-key', { state: 'detached' });
    assert.equal(await page.locator('.banner-restricted').count(), 0);
  });

  test('code blocks show the language and Copy posts the code', async () => {
    const chat = await openReady();
    const { page } = chat;
    const code = 'const x: number = 1;\nconsole.log(x);';
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't', blockId: 'b', text: `Here:\n\n\`\`\`ts\n${code}\n\`\`\`` } });
    await page.waitForSelector('.code-block button.copy');
    assert.equal(await shownText(page.locator('.code-block .code-lang')), 'ts');
    assert.ok((await page.locator('.code-block code span.hljs-keyword').count()) > 0);
    await page.click('.code-block button.copy');
    assert.deepEqual(await chat.waitForPosted('copy'), [{ type: 'copy', text: code }]);
    assert.equal(await shownText(page.locator('.code-block button.copy')), 'Copied');
  });

  test('turn_end: stopped, max_iterations and unfinished tool cards', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({
      type: 'event',
      event: { kind: 'tool_call', turnId: 't1', callId: 'x', server: 'workspace', tool: 'run_code', input: { code: 'while True: pass' } },
    });
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't1', status: 'stopped' } });
    await chat.post({
      type: 'event',
      event: { kind: 'turn_end', turnId: 't2', status: 'max_iterations', error: "Stopped after 10 model calls — send 'continue' to go on" },
    });
    await page.waitForSelector('.turn-end[data-status="max_iterations"]');
    assert.equal(await shownText(page.locator('.turn-end[data-status="stopped"]')), 'Stopped');
    assert.match(await shownText(page.locator('.turn-end[data-status="max_iterations"]')), /10 model calls/);
    assert.notEqual(await page.locator('.tool-card[data-call-id="x"] .status').getAttribute('data-status'), 'running');
  });

  test('invalid host messages are ignored with a warning and break nothing', async () => {
    const chat = await openReady();
    const { page } = chat;
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    const bad: unknown[] = [
      null,
      'replay',
      { type: 'nope' },
      { type: 'event', event: { kind: 'user', text: 'no id' } },
      { type: 'delta', turnId: '', blockId: 'b', text: 'x' },
      { type: 'state', state: { hasKey: 'yes' } },
      { type: 'replay', events: [{ kind: 'tool_call' }] },
      { type: 'attach', path: 5, label: 'x' },
    ];
    for (const m of bad) await chat.post(m);
    await chat.post({ type: 'event', event: { kind: 'notice', level: 'info', text: 'still alive' } });
    await page.waitForSelector('.notice[data-level="info"]');
    assert.equal(await page.locator('#messages > *').count(), 1);
    assert.equal(warnings.length, bad.length);
  });
});
