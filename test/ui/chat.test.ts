// What a person does in the chat, in a real VS Code, against the real bundled servers and the fake API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { until } from '../support/until';
import { startVscode, type Vscode } from '../vscode/harness';
import { shownText } from '../support/shown-text';

/**
 * The fake model: "write <file> saying <text>" calls write_file; "spin" runs endless Python (for Stop
 * during a tool call); "hang" never answers (for Stop during a model request);
 * after tool results it answers with a summary holding a code block; anything else is echoed.
 */
function model(body: MessagesBody): Reply {
  const said = lastUserText(body);
  if (isToolResultTurn(body)) {
    return {
      text: `Done. The tool said:\n\n> ${said.split('\n')[0]}\n\n\`\`\`python\nprint("hello from the agent")\n\`\`\`\n`,
      chunk: 6,
    };
  }
  const write = /write (\S+) saying (.+)/.exec(said);
  if (write) {
    return { text: `I'll create **${write[1]}** for you.`, toolUses: [{ name: 'workspace__write_file', input: { path: write[1], content: write[2] } }] };
  }
  if (/spin/.test(said)) {
    // A child whose command line the test finds from outside: in the sandbox the code's own pid is its namespace's.
    const code = `import subprocess, time\nsubprocess.Popen(['sleep', '${SPIN_MARKER}'])\nopen('spin.started', 'w').write('yes')\nwhile True:\n    time.sleep(0.05)\n`;
    return { toolUses: [{ name: 'workspace__run_code', input: { code, timeout_s: 60 } }] };
  }
  // After "hang" was stopped, the next message joins it (roles alternate): check "spin" first.
  if (/hang/.test(said)) return { hang: true };
  return { text: `You asked: ${said.slice(-300)}` };
}

describe('the chat in a real VS Code', () => {
  const api = new FakeAnthropicApi(model);
  let vs: Vscode;

  before(async () => {
    const url = await api.start();
    vs = await startVscode({
      name: 'chat',
      files: { 'example.txt': 'The quick brown fox.\nJumps over the lazy dog.\n', 'src/app.py': 'print("hi")\n' },
      settings: { 'mcpAgent.apiBaseUrl': url, 'mcpAgent.model': 'claude-test' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
  });

  after(async () => {
    await vs?.close();
    await api.stop();
  });

  test('the Tools view lists the workspace server and its tools', async (t) => {
    await vs.openChat();
    await vs.waitForTreeItem('Tools', /workspace\s*ready/);
    await vs.waitForTreeItem('Tools', 'write_file');
    const items = await vs.treeItems('Tools');
    const names = items.map((i) => i.label);
    // The tree is virtualised: only rows on screen exist (the extension-host suite checks the full list).
    for (const tool of ['read_file', 'write_file', 'list_directory']) {
      assert.ok(names.includes(tool), `${tool} missing from ${JSON.stringify(names)}`);
    }
    t.diagnostic(`screenshot: ${await vs.screenshot('tools-view')}`);
  });

  test('a message makes the model call write_file; "always" is accepted; the file lands; card and answer show', async (t) => {
    const chat = await vs.openChat();
    await chat.locator('#input').fill('Please write notes.txt saying hello from the agent');
    await chat.locator('#input').press('Enter');
    await chat.locator('.msg.user', { hasText: 'notes.txt' }).waitFor();
    const approval = chat.locator('.approval[data-state="pending"]');
    await approval.waitFor();
    assert.match(await shownText(approval), /hello from the agent/, 'the approval shows what will be written');
    t.diagnostic(`screenshot: ${await vs.screenshot('approval-pending')}`);
    await approval.locator('button[data-decision="always"]').click();
    await chat.locator('.tool-card[data-status="done"]').waitFor();
    await chat.locator('.msg.assistant .markdown', { hasText: 'The tool said' }).waitFor();
    await chat.locator('.code-block button.copy').first().waitFor();
    const file = join(vs.workspace, 'notes.txt');
    assert.ok(existsSync(file), 'notes.txt was written');
    assert.equal(readFileSync(file, 'utf8'), 'hello from the agent');
    const toolRequest = api.requests.find((r) => isToolResultTurn(r.body));
    assert.ok(toolRequest, 'the tool result went back to the model');
    t.diagnostic(`screenshot: ${await vs.screenshot('mid-conversation')}`);
    // "Always allow" is remembered for this workspace, and the Tools view says so.
    await vs.waitForTreeItem('Tools', /write_file\s*(loaded · )?always allowed/);
  });

  test('"Ask Agent About File" from the explorer attaches the file and focuses the input', async (t) => {
    await vs.page
      .getByRole('tab', { name: /Explorer/ })
      .first()
      .click();
    // Every file on disk joins the tree when the file watcher reports it: wait for all of them (whatever ran
    // before), so the rows no longer move under the clicks below.
    for (const name of readdirSync(vs.workspace).filter((n) => !n.startsWith('.'))) {
      await vs.page.locator('.explorer-folders-view .monaco-list-row .label-name', { hasText: new RegExp(`^${name.replace(/\./g, '\\.')}$`) }).waitFor();
    }
    const row = vs.page.locator('.explorer-folders-view .monaco-list-row').filter({ has: vs.page.locator('.label-name', { hasText: /^example\.txt$/ }) });
    await row.waitFor();
    // Select it first: the explorer passes its selection to the command when the clicked row is in it.
    await row.locator('.label-name').click();
    await vs.runContextMenuItem(row.locator('.label-name'), 'Ask Agent About File');
    const chat = vs.chatFrame();
    const chip = chat.locator('.composer .attachment-chip');
    await chip.waitFor();
    assert.equal(await chip.getAttribute('data-path'), 'example.txt');
    t.diagnostic(`screenshot: ${await vs.screenshot('attached')}`);
    const before = api.requests.length;
    await chat.locator('#input').fill('What does this file say?');
    await chat.locator('#input').press('Enter');
    await api.waitForRequests(before + 1);
    const sent = JSON.stringify(api.requests[before]!.body.messages.at(-1));
    assert.match(sent, /attached_file path=\\"example.txt\\"/);
    assert.match(sent, /quick brown fox/);
    await chat.locator('.msg.assistant .markdown', { hasText: 'You asked' }).last().waitFor();
  });

  test('"Ask Agent About Selection" attaches the selected lines', async (t) => {
    await vs.page.keyboard.press('Control+P');
    const quickOpen = vs.page.locator('.quick-input-widget .quick-input-box input');
    await quickOpen.fill('src/app.py');
    await vs.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'app.py' }).first().waitFor();
    await quickOpen.press('Enter');
    const editor = vs.page.locator('.editor-instance .monaco-editor .view-lines');
    await editor.waitFor();
    await editor.click();
    await vs.page.keyboard.press('Control+A');
    await vs.runCommand('MCP Agent: Ask Agent About Selection');
    const chip = vs.chatFrame().locator('.composer .attachment-chip[data-path="src/app.py#L1-1"]');
    await chip.waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('selection-attached')}`);
    await chip.locator('button').click();
    await chip.waitFor({ state: 'detached' });
  });

  test('Stop cancels a turn whose model request hangs', async (t) => {
    const chat = vs.chatFrame();
    const before = api.requests.length;
    await chat.locator('#input').fill('hang please');
    await chat.locator('#input').press('Enter');
    await api.waitForRequests(before + 1);
    await chat.locator('#stop').click();
    await chat.locator('.turn-end[data-status="stopped"]').waitFor({ state: 'attached' });
    await chat.locator('#send').waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('stopped')}`);
  });

  test('Stop cancels a running tool call: the Python process is killed', async (t) => {
    const chat = vs.chatFrame();
    await chat.locator('#input').fill('spin forever please');
    await chat.locator('#input').press('Enter');
    const approval = chat.locator('.approval[data-state="pending"]');
    await approval.waitFor();
    // run_code's card says where the code runs (the real workspace server, in its bubblewrap sandbox here).
    assert.equal(await shownText(approval.locator('.approval-summary-text')), 'Sandboxed, network off.');
    await approval.locator('.approval-summary').click();
    assert.match(await shownText(approval.locator('.approval-note')), /Sandboxed \(bubblewrap\), network off/);
    await approval.scrollIntoViewIfNeeded();
    t.diagnostic(`screenshot: ${await vs.screenshot('run-code-approval')}`);
    await approval.locator('button[data-decision="once"]').click();
    // A file and a process outside the page: no event announces them to this process, so these two waits poll.
    await until(() => existsSync(join(vs.workspace, 'spin.started')), { what: 'the script to start' });
    assert.equal(spinning().length, 1, 'the script is running');
    await chat.locator('.tool-card[data-status="running"]').waitFor();
    await chat.locator('#stop').click();
    await chat.locator('.turn-end[data-status="stopped"]').last().waitFor({ state: 'attached' });
    await until(() => spinning().length === 0, { what: 'the Python process and its child to be killed', seen: spinning });
    t.diagnostic(`screenshot: ${await vs.screenshot('tool-stopped')}`);
  });

  test('a reload restores the transcript', async (t) => {
    const chat = vs.chatFrame();
    const users = await chat.locator('.msg.user').count();
    assert.ok(users >= 3);
    await vs.reload();
    await vs.runCommand('MCP Agent: Open Chat');
    const restored = await vs.openChat();
    await restored
      .locator('.msg.user')
      .nth(users - 1)
      .waitFor();
    assert.equal(await restored.locator('.msg.user').count(), users);
    await restored.locator('.tool-card[data-status="done"]').first().waitFor();
    await restored.locator('.approval[data-state="always"]').first().waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('after-reload')}`);
  });
});

const SPIN_MARKER = `${process.pid}4242`;

/** Host pids of the spinning script's `sleep` child (alive, not a zombie). */
function spinning(): number[] {
  return readdirSync('/proc')
    .filter((name) => {
      if (!/^\d+$/.test(name)) return false;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!)) return false;
        return readFileSync(`/proc/${name}/cmdline`, 'utf8') === `sleep\0${SPIN_MARKER}\0`;
      } catch {
        return false;
      }
    })
    .map(Number);
}
