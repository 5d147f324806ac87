// What most UI tests start from: the fake Messages API, and a real VS Code pointed at it with a key.
import { after, before } from 'node:test';
import { FakeAnthropicApi, type Script } from '../fakes/anthropic-api';
import { startVscode, type Vscode, type VscodeOptions } from '../vscode/harness';

export interface ChatRig {
  api: FakeAnthropicApi;
  /** The running VS Code (started in `before`). */
  readonly vs: Vscode;
}

/** Registers before/after hooks in the calling describe(): start both, then close both. */
export function chatRig(
  name: string,
  script: Script,
  files: Record<string, string> = {},
  settings: Record<string, unknown> = {},
  options: Pick<VscodeOptions, 'remoteBrowser' | 'env'> = {},
): ChatRig {
  const api = new FakeAnthropicApi(script);
  let vs: Vscode | undefined;
  before(async () => {
    const url = await api.start();
    vs = await startVscode({
      name,
      files,
      settings: { 'mcpAgent.apiBaseUrl': url, 'mcpAgent.model': 'claude-test', ...settings },
      ...options,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ...options.env },
    });
  });
  after(async () => {
    await vs?.close();
    await api.stop();
  });
  return {
    api,
    get vs(): Vscode {
      if (!vs) throw new Error('VS Code has not started: use the rig inside a test');
      return vs;
    },
  };
}

/**
 * Registers a `before` in the calling describe() that readies the rig's window for it: its screenshots named `name`,
 * the colour theme `theme`, and a new chat, so several describe blocks (one a theme) share one started VS Code.
 */
export function themeBlock(rig: { readonly vs: Vscode }, name: string, theme: string): void {
  before(async () => {
    rig.vs.nameScreenshots(name);
    await rig.vs.colorTheme(theme);
    await rig.vs.newChat();
  });
}
