// The person's own MCP servers in a real VS Code: the trust question shows exactly what a workspace's
// .vscode/mcp.json would run (a secret input stays hidden), the Tools view groups servers by where they
// came from, a broken .mcp.json is a diagnostic on that file, and Restricted Mode starts none of them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';
import { startVscode, type Vscode } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const echo = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-echo.js');
const SECRET = 'hunter2-secret-value';

/** One server that takes a password input in its arguments and an environment variable. */
const mcpJson = JSON.stringify(
  {
    inputs: [{ type: 'promptString', id: 'token', description: 'Echo token', password: true }],
    servers: {
      echo: {
        type: 'stdio',
        command: process.execPath,
        args: [echo, '--name=echo', '--token=${input:token}'],
        env: { REGION: 'eu', ELECTRON_RUN_AS_NODE: '1' },
      },
    },
  },
  null,
  2,
);

describe('a workspace that defines MCP servers', () => {
  let vs: Vscode;
  before(async () => {
    vs = await startVscode({ name: 'own-servers', files: { '.vscode/mcp.json': mcpJson, 'a.txt': 'a\n' }, env: { ANTHROPIC_API_KEY: 'sk-ant-test' } });
  });
  after(async () => {
    await vs?.close();
  });

  test('asks once for the file, showing the exact command line and the names of its environment', async (t) => {
    const dialog = vs.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 60_000 });
    const text = await shownText(dialog);
    assert.match(text, /\.vscode\/mcp\.json defines an MCP server/);
    // The command line as it would run, with the secret input shown as its reference, never a value.
    assert.ok(text.includes(`echo: ${process.execPath} ${echo} --name=echo '--token=\${input:token}'`), text);
    assert.match(text, /environment: REGION, ELECTRON_RUN_AS_NODE/);
    t.diagnostic(`screenshot: ${await vs.screenshot('trust-prompt')}`);
    await dialog.getByRole('button', { name: 'Start Server' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Then the password input, typed into a password box, once.
    const input = vs.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor();
    assert.equal(await input.getAttribute('type'), 'password');
    await input.fill(SECRET);
    await input.press('Enter');
    await vs.openChat();
    await vs.waitForTreeItem('Tools', /echo\s*ready/);
  });

  test('the Tools view groups servers by source; a broken .mcp.json is a diagnostic on its line and a row in its group', async (t) => {
    const top = (await vs.treeItems('Tools')).filter((i) => i.level === 1);
    assert.deepEqual(
      top.map((i) => i.description),
      ['4 servers', '1 server'],
    );
    assert.deepEqual(
      top.map((i) => [i.label, i.expanded]),
      [
        ['Bundled', false],
        ['.vscode/mcp.json', true],
      ],
      'the bundled servers are folded away under their heading',
    );
    t.diagnostic(`screenshot: ${await vs.screenshot('tools-by-source')}`);

    // Folded, so the next group's rows are on screen (the list draws only visible rows).
    await (await vs.waitForTreeItem('Tools', /echo\s*ready/)).click();
    writeFileSync(join(vs.workspace, '.mcp.json'), '{\n  "mcpServers": {\n    "notes": { "args": ["--port", "3"] }\n  }\n}\n');
    const row = await vs.waitForTreeItem('Tools', /missing "command"/);
    await row.click();
    await vs.page.locator('.monaco-editor .squiggly-error').first().waitFor();
    await vs.page.keyboard.press('Control+Shift+M');
    const problems = vs.page.locator('.markers-panel');
    await problems
      .getByText(/server "notes": missing "command"/)
      .first()
      .waitFor();
    assert.match(await shownText(problems), /\[Ln 3, Col 5\]/);
    t.diagnostic(`screenshot: ${await vs.screenshot('diagnostic')}`);
    await vs.waitForTreeItem('Tools', /echo\s*ready/);
  });

  test('Add Server, answered in its quick picks, writes .vscode/mcp.json and starts the server without asking again', async () => {
    const input = vs.page.locator('.quick-input-widget .quick-input-box input');
    const pick = async (text: string): Promise<void> => {
      const row = vs.page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();
      await row.waitFor();
      await row.click();
    };
    await vs.runCommand('MCP Agent: Add Server');
    await pick('Command (stdio)');
    await input.fill(`${process.execPath} ${echo} --name=added`);
    await input.press('Enter');
    await vs.page.waitForFunction(() => document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value === 'echo');
    await input.fill('added');
    await input.press('Enter');
    await pick('.vscode/mcp.json');
    await vs.waitForTreeItem('Tools', /added\s*ready/);
    const written = JSON.parse(readFileSync(join(vs.workspace, '.vscode', 'mcp.json'), 'utf8')) as { servers: Record<string, unknown> };
    assert.deepEqual(written.servers.added, { type: 'stdio', command: process.execPath, args: [echo, '--name=added'] });
    assert.ok(written.servers.echo, 'the server already there is kept');
    assert.equal(await vs.page.locator('.monaco-dialog-box').count(), 0, 'no trust question for what the person typed');
  });
});

describe('the same workspace in Restricted Mode', () => {
  let vs: Vscode;
  before(async () => {
    vs = await startVscode({
      name: 'own-servers-restricted',
      files: { '.vscode/mcp.json': mcpJson },
      workspaceTrust: true,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
  });
  after(async () => {
    await vs?.close();
  });

  test('starts none of its servers and asks nothing', async (t) => {
    await vs.restrictedMode();
    await vs.openChat();
    await vs.waitForTreeItem('Tools', /echo\s*not started: Restricted Mode/);
    assert.equal(await vs.page.locator('.monaco-dialog-box').count(), 0, 'no question was asked');
    t.diagnostic(`screenshot: ${await vs.screenshot('restricted')}`);
  });
});
