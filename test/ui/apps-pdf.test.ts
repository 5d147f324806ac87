// @modelcontextprotocol/server-pdf from npm in the real VS Code (stdio): its viewer (4 MB of text/html;profile=mcp-app)
// is drawn under the display_pdf card and reads the PDF through its app-only tools, which the person allows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';
import { outsideServer } from '../support/outside-servers';
import { appViewFrame } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const PDF_SERVER = outsideServer('server-pdf');

/** A one-page PDF that says `text`, with a correct cross-reference table. */
function onePagePdf(text: string): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    (() => {
      const stream = `BT /F1 24 Tf 30 100 Td (${text}) Tj ET`;
      return `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
    })(),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}

describe('an MCP App view in the chat (server-pdf over stdio)', () => {
  const files = { 'doc.pdf': onePagePdf('Hello from the PDF') };
  let workspace = '';
  const model = (body: MessagesBody): Reply => {
    if (isToolResultTurn(body)) return { text: 'The PDF is open.' };
    return /pdf/.test(lastUserText(body)) ? { toolUses: [{ name: 'pdf__display_pdf', input: { url: join(workspace, 'doc.pdf') } }] } : { text: 'ok' };
  };
  const args: string[] = [PDF_SERVER, '--stdio'];
  const rig = chatRig('apps-pdf', model, files, {
    'mcpAgent.servers': { pdf: { type: 'stdio', command: process.execPath, args, env: { ELECTRON_RUN_AS_NODE: '1' } } },
  });

  test('display_pdf: the viewer shows the page once the person allows its app-only tools', async (t) => {
    workspace = rig.vs.workspace;
    await rig.vs.waitForTreeItem('Tools', /pdf\s*ready/, 90_000);
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('open the pdf');
    await chat.locator('#input').press('Enter');
    await chat.locator('.approval[data-state="pending"] button[data-decision="once"]').click();
    await chat.locator('.tool-card[data-status="done"]').waitFor({ timeout: 60_000 });
    const view = appViewFrame(chat);
    // Its app-only tools (reading the bytes, polling for commands) ask as the view's; "always" lets it work.
    const allowApp = async (): Promise<void> => {
      const asked = chat.locator('.approval[data-from-app="true"][data-state="pending"]');
      // A card may be answered by an earlier "always" before this click lands: then there is nothing to click.
      for (let i = 0; i < 5 && (await asked.count()) > 0; i++)
        await asked
          .first()
          .locator('button[data-decision="always"]')
          .click({ timeout: 2_000 })
          .catch(() => undefined);
    };
    await waitForPage(view, allowApp);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('pdf-view')}`);
    assert.match(await shownText(view.locator('body')), /of 1/, 'the viewer counts the one page');
  });

  test("the viewer's Download saves the PDF where the person picks in the save dialog (ui/download-file)", async (t) => {
    const chat = rig.vs.chatFrame();
    const view = appViewFrame(chat);
    await view.locator('#download-btn').click();
    // code-server's save dialog is a quick input holding the path; its title says whose file it is.
    const dialog = rig.vs.page.locator('.quick-input-widget');
    await dialog.locator('.quick-input-title', { hasText: 'offered by the view of MCP server "pdf"' }).waitFor();
    const box = dialog.locator('.quick-input-box input');
    // The dialog fills its box in steps (the folder, then the name): wait for the name before reading it.
    await rig.vs.page.waitForFunction(() => document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value.endsWith('.pdf'));
    const offered = await box.inputValue();
    assert.ok(offered.startsWith(join(rig.vs.workspace, '')) && offered.endsWith('.pdf'), `it starts in the workspace, under the view's name: ${offered}`);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('pdf-save-dialog')}`);
    const saved = join(rig.vs.workspace, 'saved-copy.pdf');
    await box.fill(saved);
    await box.press('Enter');
    await rig.vs.page.locator('.notifications-toasts', { hasText: 'saved saved-copy.pdf' }).waitFor();
    assert.ok(existsSync(saved), 'the file is where the person said');
    const bytes = readFileSync(saved, 'latin1');
    assert.match(bytes.slice(0, 8), /^%PDF-\d\.\d/, `a PDF: ${JSON.stringify(bytes.slice(0, 40))}`);
    assert.match(bytes, /Hello from the PDF/, 'the page the person opened');
  });

  test('a download the person cancels saves nothing and tells the view so', async () => {
    const chat = rig.vs.chatFrame();
    const view = appViewFrame(chat);
    // Its own start: no dialog left open (by a test before that failed), the viewer's button ready.
    if (await rig.vs.page.locator('.quick-input-widget').isVisible()) await rig.vs.page.keyboard.press('Escape');
    await view.locator('#download-btn:not([disabled])').waitFor();
    const before = readdirSync(rig.vs.workspace).sort();
    await view.locator('#download-btn').click();
    const dialog = rig.vs.page.locator('.quick-input-widget');
    await dialog.locator('.quick-input-title', { hasText: 'offered by the view of MCP server "pdf"' }).waitFor();
    await dialog.locator('.quick-input-box input').press('Escape');
    // The viewer re-enables its button once the host answered its request.
    await view.locator('#download-btn:not([disabled])').waitFor();
    assert.deepEqual(readdirSync(rig.vs.workspace).sort(), before);
  });
});

/** Allows what the viewer asks for while it loads, until the page's text is drawn (pdf.js's text layer). */
async function waitForPage(view: FrameLocator, allowApp: () => Promise<void>): Promise<void> {
  const drawn = view.getByText('Hello from the PDF');
  for (;;) {
    await allowApp();
    if ((await drawn.count()) > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
