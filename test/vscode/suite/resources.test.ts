// Inside the real extension host, against test/fakes/mcp-resources.ts (from the mcpAgent.servers setting, so
// no trust question): a resource opens as a read-only document that follows the server's updates and stops
// following when closed; images open as images; each server has its own log channel; prompt arguments offer
// the server's completions in a real QuickPick, with earlier arguments as context.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpAgentApi } from '../../../src/extension';
import { McpHub } from '../../../src/core/mcp/hub/hub';
import { askArguments } from '../../../src/vscode/argument-input';

const ID = 'mcp-agent.mcp-agent';
/** Generous: proves "it did not hang", not a speed. */
const WITHIN_MS = 30_000;
const PULSES = 100;

async function api(): Promise<McpAgentApi> {
  const ext = vscode.extensions.getExtension<McpAgentApi>(ID);
  assert.ok(ext, `${ID} is not installed`);
  return ext.activate();
}

function fakePath(): string {
  return join(vscode.extensions.getExtension(ID)!.extensionPath, 'out', 'test', 'fakes', 'mcp-resources.js');
}

/**
 * Resolves once `check` holds, checked whenever `on` fires; fails after WITHIN_MS naming what it waited for.
 * It listens before it first checks: a change landing between the two (a server process writing its state
 * file) would otherwise be missed.
 */
function until(what: string, on: (listener: () => void) => { dispose(): void }, check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (): void => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const sub = on(() => {
      if (check()) finish();
    });
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, WITHIN_MS);
    if (check()) finish();
  });
}

/**
 * The extension host sends a QuickPick's changes to the workbench from a 0 ms timer (ExtHostQuickInput.update);
 * a timer set after the change fires after that one, so a command sent then finds the workbench up to date.
 */
const quickInputSent = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

const onServers = (a: McpAgentApi) => (listener: () => void) => ({ dispose: a.onServersChanged(listener) });
const onDocChange = (listener: () => void) => vscode.workspace.onDidChangeTextDocument(listener);
const onTabs = (listener: () => void) => vscode.window.tabGroups.onDidChangeTabs(listener);
const onFile = (file: string) => (listener: () => void) => {
  const w = watch(file, listener);
  return { dispose: () => w.close() };
};

describe('resources, logs and completions in the editor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-res-'));
  const state = join(dir, 'subscribed.json');
  const subscribed = (): string[] => {
    try {
      return JSON.parse(readFileSync(state, 'utf8')) as string[];
    } catch {
      return ['(unreadable)'];
    }
  };

  before(async () => {
    const a = await api();
    await a.serversSettled();
    const res = { type: 'stdio', command: process.execPath, args: [fakePath(), `--pulses=${PULSES}`, `--state=${state}`], env: { ELECTRON_RUN_AS_NODE: '1' } };
    await vscode.workspace.getConfiguration('mcpAgent').update('servers', { res }, vscode.ConfigurationTarget.Global);
    await until('res ready', onServers(a), () => a.serverStatuses().some((s) => s.name === 'res' && s.state === 'ready'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('mcpAgent').update('servers', undefined, vscode.ConfigurationTarget.Global);
    await (await api()).serversApplied();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a resource opens read-only, follows the server while open, and is let go when closed', async () => {
    await vscode.commands.executeCommand('mcpAgent.openResource', 'res', 'pulse://counter');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc, 'no editor opened');
    assert.equal(doc.uri.scheme, 'mcp-agent-resource');
    assert.equal(doc.isUntitled, false, 'an untitled document would ask to be saved');
    await until(`the document to show version ${PULSES}`, onDocChange, () => doc.getText() === `version ${PULSES}`);
    assert.deepEqual(subscribed(), ['pulse://counter']);
    assert.equal(doc.isDirty, false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await until('the server to see the unsubscribe', onFile(state), () => subscribed().length === 0);
  });

  it('a markdown resource opens as markdown, an image resource as an image', async () => {
    await vscode.commands.executeCommand('mcpAgent.openResource', 'res', 'pulse://notes.md');
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'markdown');
    assert.equal(vscode.window.activeTextEditor?.document.getText(), '# Notes\n\n- one\n- two\n');
    await vscode.commands.executeCommand('mcpAgent.openResource', 'res', 'pulse://pixel');
    const isImageTab = (): boolean => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.uri.path.endsWith('.png');
    };
    await until('an image tab', onTabs, isImageTab);
  });

  it('each server has its own log channel, and Show Server Log opens it', async () => {
    await vscode.commands.executeCommand('mcpAgent.showServerLog', 'res');
    // A shown channel is an output document; the server's is the one with its lifecycle lines.
    const isLog = (d: vscode.TextDocument): boolean => d.uri.scheme === 'output' && /ready: resources 1\.0\.0/.test(d.getText());
    const seen = (l: () => void) => {
      const a = vscode.workspace.onDidOpenTextDocument(l);
      const b = vscode.workspace.onDidChangeTextDocument(l);
      return { dispose: () => (a.dispose(), b.dispose()) };
    };
    await until("the res server's log", seen, () => vscode.workspace.textDocuments.some(isLog));
    const log = vscode.workspace.textDocuments.find(isLog)!;
    assert.doesNotMatch(log.getText(), /ready: (workspace|web|research)/, 'only its own server');
  });

  it('prompt arguments offer the server completions as one types, with the earlier ones as context', async () => {
    const hub = new McpHub([
      { name: 'res', transport: 'stdio', command: process.execPath, args: [fakePath()], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } },
    ]);
    hub.start();
    try {
      await hub.settled();
      let qp: vscode.QuickPick<vscode.QuickPickItem> | undefined;
      let itemsSet: () => void = () => undefined;
      const onItems = (listener: () => void) => {
        itemsSet = listener;
        return { dispose: () => (itemsSet = () => undefined) };
      };
      const labels = (): string[] => (qp?.items ?? []).map((i) => i.label);
      // The real QuickPick, watched: a proxy tells the test each time the items change.
      const createQuickPick = (): vscode.QuickPick<vscode.QuickPickItem> => {
        const real = vscode.window.createQuickPick();
        qp = new Proxy(real, {
          get: (t, p) => {
            const v = Reflect.get(t, p, t) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
          },
          set: (t, p, v) => {
            const ok = Reflect.set(t, p, v, t);
            if (p === 'items') itemsSet();
            return ok;
          },
        });
        return qp;
      };
      const asked: Array<{ name: string; value: string; context: Record<string, string> }> = [];
      const complete = async (name: string, value: string, context: Record<string, string>): Promise<string[]> => {
        asked.push({ name, value, context });
        const r = await hub.complete('res', { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name, value }, context: { arguments: context } });
        return r.completion.values;
      };
      const values = askArguments({ title: 'trip', args: [{ name: 'country', required: true }, { name: 'city' }], createQuickPick, debounceMs: 20, complete });
      await until('every country offered', onItems, () => labels().join() === 'France,Japan,Peru');
      const countryPick = qp;
      qp!.value = 'ja';
      await until('Japan alone', onItems, () => labels().join() === 'ja,Japan');
      countryPick!.activeItems = countryPick!.items.filter((i) => i.label === 'Japan');
      await quickInputSent();
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await until("Japan's cities", onItems, () => qp !== countryPick && labels().join() === 'Tokyo,Osaka,Kyoto').catch((err: Error) => {
        throw new Error(`${err.message}; shown: ${labels().join()}; asked: ${JSON.stringify(asked)}`);
      });
      assert.deepEqual(asked.at(-1), { name: 'city', value: '', context: { country: 'Japan' } });
      qp!.value = 'Nara';
      await until('the typed city', onItems, () => labels()[0] === 'Nara');
      qp!.activeItems = qp!.items.filter((i) => i.label === 'Nara');
      await quickInputSent();
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.deepEqual(await values, { country: 'Japan', city: 'Nara' });

      // Given values (typed after /prompt) are not asked again and are the context of the rest.
      const askedBefore = asked.length;
      const cityPick = qp;
      const more = askArguments({
        title: 'trip',
        args: [{ name: 'country', required: true }, { name: 'city' }],
        given: { country: 'Peru' },
        createQuickPick,
        debounceMs: 20,
        complete,
      });
      await until('a city asked for Peru', onItems, () => qp !== cityPick && asked.length > askedBefore);
      assert.deepEqual(
        asked.slice(askedBefore).map((a) => a.name),
        ['city'],
        'the given country is not asked again',
      );
      assert.deepEqual(asked.at(-1)?.context, { country: 'Peru' });
      qp!.value = 'Cusco';
      await until('the typed city', onItems, () => labels()[0] === 'Cusco');
      qp!.activeItems = qp!.items.filter((i) => i.label === 'Cusco');
      await quickInputSent();
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.deepEqual(await more, { country: 'Peru', city: 'Cusco' });
    } finally {
      await hub.dispose();
    }
  });
});
