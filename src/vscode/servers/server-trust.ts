import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/mcp/config/definition';
import { consentDetails, launchLine } from '../../core/mcp/config/definition-summary';
import type { ServerTrustAnswers, TrustAnswer } from '../../core/mcp/config/own-servers';
import { editorReads, HOST_SETTING } from './editor-mcp';

const KEY = 'mcpAgent.serverTrust';
const START = 'Start Servers';
const START_ONE = 'Start Server';
const DONT = "Don't Start";

/**
 * The person's answers about servers a workspace defines, remembered per definition fingerprint in
 * workspaceState: the same definition is never asked about twice, and any change to what it would
 * run (command, arguments, environment, folder, URL, headers) makes it new and asks again.
 */
export class ServerTrust implements ServerTrustAnswers {
  constructor(private readonly state: vscode.Memento) {}

  answer(d: ServerDefinition): TrustAnswer | undefined {
    return this.answers()[d.fingerprint];
  }

  async remember(definitions: ReadonlyArray<Pick<ServerDefinition, 'fingerprint'>>, answer: TrustAnswer): Promise<void> {
    const all = { ...this.answers() };
    for (const d of definitions) all[d.fingerprint] = answer;
    await this.state.update(KEY, all);
  }

  /** Forgets the answer, so the next start asks again. */
  async forget(d: ServerDefinition): Promise<void> {
    const all = { ...this.answers() };
    delete all[d.fingerprint];
    await this.state.update(KEY, all);
  }

  /**
   * One modal for one file's new or changed servers: exactly what each would run, the names (never
   * the values) of what the file gives it, and each value it takes from the person's environment or
   * inputs with where that is sent, as its reference (`${env:GITHUB_TOKEN}`), so a secret is never on
   * screen. The answer is remembered for each of them; closing the dialog decides nothing.
   */
  async ask(label: string, definitions: readonly ServerDefinition[]): Promise<TrustAnswer | undefined> {
    const n = definitions.length;
    const message = `This workspace's ${label} defines ${n === 1 ? 'an MCP server' : `${n} MCP servers`} that ${n === 1 ? 'is' : 'are'} new or changed. Start ${n === 1 ? 'it' : 'them'}?`;
    const detail = `A server runs on this computer with your rights.${sharedFile(definitions)}\n\n${definitions.map(describe).join('\n\n')}`;
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, n === 1 ? START_ONE : START, DONT);
    const answer = choice === START || choice === START_ONE ? 'trusted' : choice === DONT ? 'declined' : undefined;
    if (answer) await this.remember(definitions, answer);
    return answer;
  }

  private answers(): Record<string, TrustAnswer> {
    return this.state.get<Record<string, TrustAnswer>>(KEY) ?? {};
  }
}

/** For a file VS Code's own chat reads too: which host this answer is for, and how to leave the file to the other. */
function sharedFile(definitions: readonly ServerDefinition[]): string {
  const source = definitions[0]?.source;
  if (!source || !editorReads(source)) return '';
  return `\n\nThis is for MCP Agent's chat. VS Code's own chat reads this file too and asks on its own; to leave it to VS Code, set ${HOST_SETTING} to "vscode".`;
}

/** What the modal says of one server (definition-summary.ts, shared with the CLI). */
function describe(d: ServerDefinition): string {
  return [`${d.name}: ${launchLine(d)}`, ...consentDetails(d).map((line) => `  ${line}`)].join('\n');
}
