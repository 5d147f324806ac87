// Screenshots of the chat in VS Code's light and dark themes at side-bar widths, into
// .test-artifacts/screenshots/ for a person to look at; asserts nothing overflows sideways.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HostMessage } from '../../src/common/protocol';
import { repoRoot, startHarness, type ChatPage, type Harness } from '../fakes/webview-harness';
import { midConversation, readyState } from '../fakes/webview-conversation';

const outDir = join(repoRoot(), '.test-artifacts', 'screenshots');

let harness: Harness;
before(async () => {
  mkdirSync(outDir, { recursive: true });
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

/** Elements sticking out to the right of the view (scrollable code and tables may scroll inside). */
async function overflow(chat: ChatPage): Promise<string[]> {
  return chat.page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`page scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of Array.from(document.querySelectorAll('#root *'))) {
      if (el.closest('pre, table, .sr-only, .status-text')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 0.5) out.push(`${el.tagName}.${el.className} right=${Math.round(r.right)}`);
    }
    return out;
  });
}

async function shoot(chat: ChatPage, name: string): Promise<void> {
  // A still caret and spinner so the pictures are the same run to run.
  await chat.page.addStyleTag({ content: '*, *::after { animation-play-state: paused !important; }' }).catch(() => undefined);
  await chat.page.screenshot({ path: join(outDir, `${name}.png`) });
}

describe('chat webview screenshots', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [320, 400]) {
      test(`mid-conversation, ${theme}, ${width}px`, async () => {
        const chat = await harness.open({ theme, width, height: 900 });
        for (const m of midConversation()) await chat.post(m);
        await chat.page.waitForSelector('.approval[data-call-id="c2"] button[data-decision="once"]');
        await chat.page.waitForFunction(() => document.querySelector('.markdown[data-block-id="b2"]')?.textContent?.includes('needs your approval'));
        await chat.page.fill('#input', 'Also add the publication years');
        await chat.post({ type: 'attach', path: 'notes/reading-list.md', label: 'reading-list.md' } satisfies HostMessage);
        await chat.page.waitForSelector('.composer .attachment-chip');
        // Scroll to the top so the picture starts at the first message.
        await chat.page.evaluate(() => document.getElementById('scroller')!.scrollTo({ top: 0 }));
        assert.deepEqual(await overflow(chat), []);
        assert.deepEqual(await chat.cspViolations(), []);
        await shoot(chat, `chat-${theme}-${width}`);
        await chat.page.evaluate(() => document.getElementById('scroller')!.scrollTo({ top: 1e6 }));
        await shoot(chat, `chat-${theme}-${width}-bottom`);
        await chat.page.close();
      });
    }

    test(`empty chat and set-key call to action, ${theme}`, async () => {
      const chat = await harness.open({ theme, width: 360, height: 640 });
      await chat.post({ type: 'state', state: { ...readyState, hasKey: false, trusted: false, serverProblems: ['web: exited with code 1 (restarting)'] } });
      await chat.page.waitForSelector('.cta-set-key');
      assert.deepEqual(await overflow(chat), []);
      await shoot(chat, `empty-${theme}`);
      await chat.page.close();
    });

    test(`errors, notices and a stopped turn, ${theme}`, async () => {
      const chat = await harness.open({ theme, width: 360, height: 640 });
      await chat.post({ type: 'state', state: readyState });
      await chat.post({
        type: 'replay',
        events: [
          { kind: 'user', id: 'u', text: 'Run the tests', attachments: [], at: 1 },
          {
            kind: 'tool_call',
            turnId: 't',
            callId: 'c',
            server: 'workspace',
            tool: 'run_code',
            input: { language: 'python', code: 'import pytest\npytest.main()' },
          },
          {
            kind: 'tool_result',
            callId: 'c',
            isError: true,
            content: [{ type: 'text', text: 'Timed out after 120 s; the process and its children were killed.' }],
            durationMs: 120_004,
          },
          { kind: 'approval_request', callId: 'd', server: 'workspace', tool: 'write_file', reason: 'Writes .vscode/settings.json' },
          { kind: 'approval', callId: 'd', decision: 'deny' },
          { kind: 'notice', level: 'warning', text: 'The research server restarted after a crash.' },
          { kind: 'turn_end', turnId: 't', status: 'stopped' },
          { kind: 'user', id: 'u2', text: 'continue', attachments: [], at: 2 },
          { kind: 'assistant_text', turnId: 't2', blockId: 'b', text: 'Checking `pytest.ini` next…' },
          { kind: 'turn_end', turnId: 't2', status: 'error', error: 'Anthropic API error 529: overloaded. Try again in a moment.' },
          { kind: 'turn_end', turnId: 't3', status: 'max_iterations', error: "Stopped after 10 model calls — send 'continue' to go on." },
        ],
      });
      await chat.page.waitForSelector('.turn-end[data-status="max_iterations"]');
      assert.deepEqual(await overflow(chat), []);
      await shoot(chat, `errors-${theme}`);
      await chat.page.close();
    });
  }
});
