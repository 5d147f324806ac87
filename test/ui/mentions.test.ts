// `@` in the composer: files, folders and the Problems list attach as chips; a binary file is refused before sending.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chatRig } from './chat-rig';
import { PNG_1PX } from '../fakes/webview-conversation';
import { shownText } from '../support/shown-text';

const BINARY = '\u0000\u0001\u0002PNG\u0000'.repeat(200);

describe('@ mentions in the composer', () => {
  const rig = chatRig('mentions', [{ text: 'Read them.' }], {
    'src/app.py': 'print("hello")\n',
    'src/util/helpers.py': 'def helper():\n    return 1\n',
    'docs/guide.md': '# Guide\n',
    'logo.bin': BINARY,
  });

  test('@ offers matching files, Enter attaches one as a chip, a binary is refused with why, Backspace takes a chip off', async (t) => {
    const chat = await rig.vs.openChat();
    const input = chat.locator('#input');
    await input.fill('Explain ');
    await input.pressSequentially('@app');
    const item = chat.locator('.mention-item', { hasText: 'app.py' }).first();
    await item.waitFor();
    assert.equal(await shownText(chat.locator('.mention-item[aria-selected="true"] .mention-label').first()), 'app.py', 'the name match comes first');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('mention-list')}`);
    await input.press('Enter');
    await chat.locator('.composer .attachment-chip[data-path="src/app.py"]').waitFor();
    assert.equal(await input.inputValue(), 'Explain ', 'the @query gave way to the chip; nothing was sent');

    await input.pressSequentially('@logo');
    const refused = chat.locator('.mention-item.refused', { hasText: 'logo.bin' });
    await refused.waitFor();
    assert.match(await shownText(refused), /binary file/);
    await input.press('Enter');
    await chat.locator('.composer-note', { hasText: 'logo.bin: a binary file' }).waitFor();
    assert.equal(await chat.locator('.composer .attachment-chip[data-path="logo.bin"]').count(), 0);

    await input.pressSequentially('@util');
    await chat.locator('.mention-item[data-kind="folder"]', { hasText: 'src/util/' }).waitFor();
    await chat.locator('.mention-item[data-kind="folder"]', { hasText: 'src/util/' }).click();
    await chat.locator('.composer .attachment-chip[data-path="src/util"]').waitFor();
    await input.pressSequentially('@prob');
    await chat.locator('.mention-item[data-kind="problems"]').waitFor();
    await input.press('Tab');
    await chat.locator('.composer .attachment-chip[data-path="@problems"]').waitFor();

    // Backspace in the empty input removes the newest chip.
    await input.fill('');
    await input.press('Backspace');
    await chat.locator('.composer .attachment-chip[data-path="@problems"]').waitFor({ state: 'detached' });
    await input.pressSequentially('@prob');
    await chat.locator('.mention-item[data-kind="problems"]').waitFor();
    await input.press('Enter');

    await input.pressSequentially('What do these do?');
    await input.press('Enter');
    await chat.locator('.markdown', { hasText: 'Read them.' }).waitFor();
    const sent = JSON.stringify(rig.api.requests.at(-1)!.body.messages.at(-1));
    assert.match(sent, /<attached_file path=\\"src\/app.py\\">\\nprint/);
    assert.match(sent, /<attached_folder path=\\"src\/util\\">\\nhelpers.py/);
    assert.match(sent, /<problems>/);
  });

  test('a pasted image becomes a chip and goes to the model as an image; an unsupported type is refused with why', async () => {
    const chat = await rig.vs.openChat();
    const input = chat.locator('#input');
    const paste = (type: string) =>
      input.evaluate(
        (el, [b64, mime]) => {
          const bytes = Uint8Array.from(atob(b64!), (c) => c.charCodeAt(0));
          const data = new DataTransfer();
          data.items.add(new File([bytes], 'clip', { type: mime }));
          el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        },
        [PNG_1PX, type],
      );
    await paste('image/bmp');
    await chat.locator('.composer-note', { hasText: 'image/bmp image cannot be sent' }).waitFor();
    await paste('image/png');
    await chat.locator('.composer .attachment-chip', { hasText: 'pasted image 1' }).waitFor();
    rig.api.setScript([{ text: 'A one-pixel image.' }]);
    await input.fill('What is in this picture?');
    await input.press('Enter');
    await chat.locator('.markdown', { hasText: 'A one-pixel image.' }).waitFor();
    const last = rig.api.requests.at(-1)!.body.messages.at(-1)!.content as Array<{ type: string; source?: { data: string; media_type: string } }>;
    const image = last.find((b) => b.type === 'image');
    assert.equal(image?.source?.media_type, 'image/png');
    assert.equal(image?.source?.data, PNG_1PX);
    assert.match(await shownText(chat.locator('.msg.user').last()), /pasted image 1/);
  });
});
