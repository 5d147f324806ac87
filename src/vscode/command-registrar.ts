import * as vscode from 'vscode';
import { messageOf } from '../node/error-message';

/** Registers one command; see commandRegistrar. */
export type Register = (id: string, run: (...args: never[]) => unknown) => vscode.Disposable;

/** Registers a command whose failure is logged, kept for the extension's API and shown to the person. */
export function commandRegistrar(log: vscode.LogOutputChannel, onError: (message: string) => void): Register {
  return (id, run) =>
    vscode.commands.registerCommand(id, async (...args: never[]) => {
      try {
        return await run(...args);
      } catch (err) {
        const message = messageOf(err);
        log.error(`${id} failed: ${message}`);
        onError(`${id}: ${message}`);
        void vscode.window.showErrorMessage(`MCP Agent: ${message}`);
        return undefined;
      }
    });
}
