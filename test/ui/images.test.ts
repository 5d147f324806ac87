// A run_code plot in a real VS Code: shown open at the chat's width, and a click opens it in an editor tab.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isToolResultTurn, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';

/** A 320×200 gradient PNG written with zlib alone (no matplotlib needed), as a plot would be. */
const PLOT_CODE = `import os, struct, zlib
w, h = 320, 200
rows = b''.join(b'\\x00' + bytes(v for x in range(w) for v in (x * 255 // w, y * 255 // h, 160)) for y in range(h))
def chunk(t, d):
    c = t + d
    return struct.pack('>I', len(d)) + c + struct.pack('>I', zlib.crc32(c))
png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b'')
open(os.path.join(os.environ['MCP_AGENT_FIGURES_DIR'], 'plot.png'), 'wb').write(png)
print('plotted')
`;

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: 'Here is the plot.' };
  return { toolUses: [{ name: 'workspace__run_code', input: { code: PLOT_CODE } }] };
}

describe('run_code images in a real VS Code', () => {
  const rig = chatRig('images', model, {});

  test('the plot is shown open at the width of the chat; a click opens it in an editor tab', async (t) => {
    // The trees have a side bar of their own: wait there, then show the chat.
    await rig.vs.waitForTreeItem('Tools', /workspace\s*ready/);
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('plot something');
    await chat.locator('#input').press('Enter');
    await chat.locator('.approval[data-state="pending"] button[data-decision="once"]').click();
    const img = chat.locator('.tool-card .tool-images img');
    await img.waitFor();
    await chat.locator('.msg.assistant .markdown', { hasText: 'Here is the plot.' }).waitFor();
    const [imgWidth, cardWidth] = await img.evaluate((el) => [el.getBoundingClientRect().width, el.closest('.tool-card')!.getBoundingClientRect().width]);
    assert.ok(imgWidth >= cardWidth - 20, `the plot is ${imgWidth} px wide in a ${cardWidth} px card`);
    assert.equal(await chat.locator('.tool-card .tool-body').first().isHidden(), true, 'open although the card is collapsed');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('plot-in-chat')}`);
    await img.click();
    const tab = rig.vs.page.locator('.tabs-container .tab', { hasText: /\.png/ });
    await tab.waitFor();
    // VS Code's own image preview (a webview of its media-preview extension) shows the file.
    const preview = rig.vs.page.frameLocator('iframe.webview.ready[src*="extensionId=vscode.media-preview"]').frameLocator('#active-frame');
    await preview.locator('img').waitFor();
    assert.deepEqual(
      await preview.locator('img').evaluate((el) => [(el as HTMLImageElement).naturalWidth, (el as HTMLImageElement).naturalHeight]),
      [320, 200],
    );
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('plot-in-tab')}`);
  });
});
