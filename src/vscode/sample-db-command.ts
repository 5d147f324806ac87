import * as vscode from 'vscode';
import { createSampleDb, sampleDbSummary } from '../node/sample-db';

/**
 * MCP Agent: Create Sample Database. The demo's tables come only when the person asks for them,
 * never unasked in someone's project, and an existing data.db is never replaced.
 */
export async function createSampleDatabase(workspace: string | undefined, openChat: () => Promise<void>): Promise<void> {
  if (!workspace) throw new Error('Open a folder first: the sample database is created in the workspace folder.');
  const outcome = await createSampleDb(workspace);
  if (outcome.kind === 'refused') throw new Error(`Could not create ${outcome.path}: ${outcome.reason}.`);
  if (outcome.kind === 'exists') {
    void vscode.window.showWarningMessage(`MCP Agent: ${outcome.reason}.`);
    return;
  }
  // Not awaited: the command is done once the file exists, whether or not the person clicks.
  void vscode.window
    .showInformationMessage(
      `MCP Agent: created data.db with ${sampleDbSummary()}. Try asking the agent "Which books in data.db are Science Fiction?"`,
      'Open Chat',
    )
    .then((pick) => (pick === 'Open Chat' ? openChat() : undefined));
}
